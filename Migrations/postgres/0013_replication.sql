-- Replicas that work offline and merge (issue 35), on PostgreSQL: a server is only ever a
-- hub (replicas are SQLite files), so it needs the hub's tables only: its id and the intents
-- it applied. Migrations/sqlite/0013_replication.sql has the replica's tables and the whole
-- design (docs/replicas.md, "How it is stored"); this file keeps the two engines at the same
-- versions and names (EmbeddedMigrationsTests).

CREATE TABLE sync_identity (
    -- One row.
    singleton integer NOT NULL PRIMARY KEY CHECK (singleton = 1),
    -- This database's id (lowercase canonical UUID text).
    database_id text COLLATE "C" NOT NULL
        CHECK (database_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
);

INSERT INTO sync_identity (singleton, database_id) VALUES (1, gen_random_uuid()::text);

CREATE TABLE sync_applied (
    -- An intent this hub applied (or judged to change nothing): never applied twice.
    intent_id text COLLATE "C" NOT NULL PRIMARY KEY
        CHECK (intent_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    -- The replica it came from.
    origin text COLLATE "C" NOT NULL
        CHECK (origin ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    applied_at text COLLATE "C" NOT NULL
        CHECK (applied_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$')
);
