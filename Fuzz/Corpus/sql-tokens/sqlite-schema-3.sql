
CREATE TABLE schema_migrations (
    -- One row per migration file applied, written by stockroom in the same
    -- transaction as the migration itself.
    version    INTEGER PRIMARY KEY,   -- the NNNN of Migrations/NNNN_name.sql
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,         -- SHA-256 of the file, line endings normalised to LF
    applied_at TEXT NOT NULL          -- ISO-8601 UTC
) STRICT;