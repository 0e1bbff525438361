-- `items list --search TEXT` without reading every row: a trigram index over item names, the
-- PostgreSQL twin of Migrations/sqlite/0005_name_search.sql.
--
-- The rule stays what it was: `name ILIKE '%TEXT%' ESCAPE '\'` over a COLLATE "C" column, which
-- folds ASCII letters only. pg_trgm's GIN operator class serves LIKE and ILIKE patterns: the
-- index proposes rows by their trigrams and the server rechecks every one with the ILIKE
-- itself, so results are exactly those of a scan; the planner picks the index or the
-- items_by_name walk by its estimate of how many rows match. Patterns with fewer than 3
-- letters or digits give the index nothing to look up and are scanned as before.
--
-- WHERE pg_trgm LIVES. It ships with Debian's postgresql-15 (no extra package) and is a trusted
-- extension: the database's owner, or any role with CREATE on the database, may create it.
-- An extension belongs to the whole database, not to the schema holding Stockroom's tables
-- (several Stockroom schemas may share a database), so it goes into a schema of its own,
-- `stockroom_extensions`, unless the database already has it somewhere, which is then used.
-- The index names the operator class with its schema, so it does not depend on search_path.

CREATE SCHEMA IF NOT EXISTS stockroom_extensions;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA stockroom_extensions;

DO $$
DECLARE
    extension_schema text;
BEGIN
    SELECT n.nspname INTO extension_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX items_by_name_trigram ON items USING gin (name %I.gin_trgm_ops)', extension_schema);
END
$$;
