-- Replicas that push through `stockroom serve` (issue 36): where each replica registered, so
-- that no replica pushes under another's origin. Migrations/sqlite/0014_origins_and_rereads.sql
-- has the why, and the replica's table a server never needs (replicas are SQLite files); this
-- file keeps the two engines at the same versions and names.

CREATE TABLE sync_origins (
    replica_id text COLLATE "C" NOT NULL PRIMARY KEY
        CHECK (replica_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    machine_id text COLLATE "C" NOT NULL CHECK (length(machine_id) > 0),
    path text COLLATE "C" NOT NULL CHECK (length(path) > 0),
    first_seen text COLLATE "C" NOT NULL
        CHECK (first_seen ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$')
);
