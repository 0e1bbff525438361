-- Replicas that work offline and merge (issue 35): who is who, what waits to be pushed, and
-- what a hub has applied. docs/replicas.md, "How it is stored", is the design; the rules that
-- decide are Swift (Sources/Inventory/Replication/MergeRules.swift), not SQL.
--
-- EVERY DATABASE HAS AN ID (`sync_identity`), made here once. A hub is known by it: the same
-- hub reached another way (a moved file, a PostgreSQL failover) has the same id, another hub
-- has another, and a replica pointed at a hub it is not attached to is refused.
--
-- A REPLICA is a SQLite file with one `sync_replica` row. Its changes wait in `sync_intents`,
-- which the triggers below fill, whoever writes: the CLI, the web front, the library or the
-- sqlite3 shell. With no `sync_replica` row (a standalone file, a hub) they do nothing; a write
-- pays one lookup of that one-row table.
--
-- AN INTENT is a tagged row, one case of Swift's IntentChange:
--
--   add       copy_* NULL        to_* the new item
--   set       copy_* the item    to_* the item after (a set is the fields that differ)
--   adjust    copy_* the item    to_* the item after, adjust_by the units (non-zero)
--   delete    copy_* the item    last_pulled_position: the hub position the replica had pulled
--   resolve   copy_* the item or NULL   conflict_id, choice; to_* the chosen item for 'item'
--
-- An adjustment is told from a set by `item_event_context.adjusted_by` (0011), which the one
-- adjust path writes in its transaction just before its UPDATE; a shell UPDATE is a set.
--
-- NOT CAPTURED: what a pull writes (the hub's rows) and the item writes of a resolution, which
-- the Swift code records as one 'resolve' intent. Both run with `sync_replica.capturing` at 0
-- in their own transaction and set it back before committing.
--
-- A HUB remembers each applied intent in `sync_applied`, so that a push retried after a lost
-- answer applies once.

CREATE TABLE sync_identity (
    -- One row.
    singleton INTEGER NOT NULL PRIMARY KEY CHECK (singleton = 1),
    -- This database's id (lowercase canonical UUID text).
    database_id TEXT NOT NULL
        CHECK (length(database_id) = 36 AND database_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')
) STRICT;

INSERT INTO sync_identity (singleton, database_id) SELECT 1, (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))));

CREATE TABLE sync_replica (
    -- One row on a replica; none on any other database.
    singleton INTEGER NOT NULL PRIMARY KEY CHECK (singleton = 1),
    -- The replica's id: the origin of its intents on the hub.
    replica_id TEXT NOT NULL
        CHECK (length(replica_id) = 36 AND replica_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- The hub's database id (its sync_identity).
    hub_id TEXT NOT NULL
        CHECK (length(hub_id) = 36 AND hub_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- How the hub was last reached: a file path or a postgresql:// URI, never with a password.
    hub_uri TEXT NOT NULL CHECK (length(hub_uri) > 0),
    -- Where the replica was registered: a copy of the file used on another machine or at
    -- another path registers as a new replica, so one origin never mixes two devices' changes.
    machine_id TEXT NOT NULL,
    path TEXT NOT NULL,
    -- The hub's history position this replica has pulled up to.
    pulled_position INTEGER NOT NULL DEFAULT 0 CHECK (pulled_position >= 0),
    -- When the last sync completed (ISO-8601 UTC), NULL before the first.
    last_sync TEXT NULL
        CHECK (last_sync IS NULL OR last_sync GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    -- 1: changes become intents; 0 only inside a pull or a resolution's transaction.
    capturing INTEGER NOT NULL DEFAULT 1 CHECK (capturing IN (0, 1))
) STRICT;

CREATE TABLE sync_intents (
    -- The replica's order: intents are pushed in it.
    sequence INTEGER PRIMARY KEY,
    -- The intent's own id, stable from the moment it was made.
    id TEXT NOT NULL UNIQUE
        CHECK (length(id) = 36 AND id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    item_id TEXT NOT NULL
        CHECK (length(item_id) = 36 AND item_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- When it was made, by this machine's clock (shown to people; no rule reads it).
    made_at TEXT NOT NULL
        CHECK (made_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    -- The tag of IntentChange.
    kind TEXT NOT NULL
        CHECK (kind IN ('add', 'set', 'adjust', 'delete', 'resolve')),
    -- The replica's copy of the item just before the change.
    copy_name TEXT NULL
        CHECK (copy_name IS NULL OR length(trim(copy_name, ' ' || char(9, 10, 11, 12, 13))) > 0),
    copy_color TEXT NULL
        CHECK (copy_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    copy_status TEXT NULL
        CHECK (copy_status IN ('in_stock', 'out_of_stock')),
    copy_quantity INTEGER NULL,
    copy_is_on_back_order INTEGER NULL,
    copy_location TEXT NULL
        CHECK (copy_location IS NULL OR (length(copy_location) BETWEEN 1 AND 200 AND copy_location = trim(copy_location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND copy_location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*')),
    -- The item after the change.
    to_name TEXT NULL
        CHECK (to_name IS NULL OR length(trim(to_name, ' ' || char(9, 10, 11, 12, 13))) > 0),
    to_color TEXT NULL
        CHECK (to_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    to_status TEXT NULL
        CHECK (to_status IN ('in_stock', 'out_of_stock')),
    to_quantity INTEGER NULL,
    to_is_on_back_order INTEGER NULL,
    to_location TEXT NULL
        CHECK (to_location IS NULL OR (length(to_location) BETWEEN 1 AND 200 AND to_location = trim(to_location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND to_location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*')),
    -- 'adjust': by how many units.
    adjust_by INTEGER NULL CHECK (adjust_by IS NULL OR adjust_by <> 0),
    -- 'delete': the hub history position this replica had pulled when it deleted the item.
    last_pulled_position INTEGER NULL CHECK (last_pulled_position IS NULL OR last_pulled_position >= 0),
    -- 'resolve': the conflict (its resolving draft's id) and the choice made.
    conflict_id TEXT NULL
        CHECK (conflict_id IS NULL OR (length(conflict_id) = 36 AND conflict_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')),
    choice TEXT NULL
        CHECK (choice IN ('keep_hub', 'item', 'delete')),

    -- Each item side is a whole item or entirely NULL.
    CONSTRAINT copy_is_whole CHECK ((copy_name IS NULL) = (copy_status IS NULL)
        AND (copy_name IS NOT NULL OR (copy_color IS NULL AND copy_location IS NULL))),
    CONSTRAINT to_is_whole CHECK ((to_name IS NULL) = (to_status IS NULL)
        AND (to_name IS NOT NULL OR (to_color IS NULL AND to_location IS NULL))),
    CONSTRAINT copy_status_columns_match_status CHECK (
        (copy_status IS NULL AND copy_quantity IS NULL AND copy_is_on_back_order IS NULL)
        OR (copy_status = 'in_stock' AND copy_quantity IS NOT NULL AND copy_quantity >= 1 AND copy_is_on_back_order IS NULL)
        OR (copy_status = 'out_of_stock' AND copy_quantity IS NULL AND copy_is_on_back_order IS NOT NULL AND copy_is_on_back_order IN (0, 1))
    ),
    CONSTRAINT to_status_columns_match_status CHECK (
        (to_status IS NULL AND to_quantity IS NULL AND to_is_on_back_order IS NULL)
        OR (to_status = 'in_stock' AND to_quantity IS NOT NULL AND to_quantity >= 1 AND to_is_on_back_order IS NULL)
        OR (to_status = 'out_of_stock' AND to_quantity IS NULL AND to_is_on_back_order IS NOT NULL AND to_is_on_back_order IN (0, 1))
    ),
    -- The tagging rule of IntentChange: each kind owns exactly its columns.
    CONSTRAINT payload_matches_kind CHECK (
        (kind = 'add' AND copy_name IS NULL AND to_name IS NOT NULL
            AND adjust_by IS NULL AND last_pulled_position IS NULL AND conflict_id IS NULL AND choice IS NULL)
        OR (kind = 'set' AND copy_name IS NOT NULL AND to_name IS NOT NULL
            AND adjust_by IS NULL AND last_pulled_position IS NULL AND conflict_id IS NULL AND choice IS NULL)
        OR (kind = 'adjust' AND copy_name IS NOT NULL AND to_name IS NOT NULL AND adjust_by IS NOT NULL
            AND last_pulled_position IS NULL AND conflict_id IS NULL AND choice IS NULL)
        OR (kind = 'delete' AND copy_name IS NOT NULL AND to_name IS NULL AND last_pulled_position IS NOT NULL
            AND adjust_by IS NULL AND conflict_id IS NULL AND choice IS NULL)
        OR (kind = 'resolve' AND conflict_id IS NOT NULL AND choice IS NOT NULL
            AND (choice = 'item') = (to_name IS NOT NULL)
            AND adjust_by IS NULL AND last_pulled_position IS NULL)
    )
) STRICT;

CREATE TABLE sync_applied (
    -- An intent a hub applied (or judged to change nothing): never applied twice.
    intent_id TEXT NOT NULL PRIMARY KEY
        CHECK (length(intent_id) = 36 AND intent_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- The replica it came from.
    origin TEXT NOT NULL
        CHECK (length(origin) = 36 AND origin GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    applied_at TEXT NOT NULL
        CHECK (applied_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')
) STRICT, WITHOUT ROWID;

CREATE TRIGGER items_capture_add
AFTER INSERT ON items
WHEN (SELECT capturing FROM sync_replica) = 1
BEGIN
    INSERT INTO sync_intents (id, item_id, made_at, kind, to_name, to_color, to_status, to_quantity, to_is_on_back_order, to_location)
    VALUES ((lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))), NEW.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'add', NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order, NEW.location);
END;

CREATE TRIGGER items_capture_change
AFTER UPDATE OF name, color, status, quantity, is_on_back_order, location ON items
WHEN (SELECT capturing FROM sync_replica) = 1
  AND (NEW.name IS NOT OLD.name OR NEW.color IS NOT OLD.color OR NEW.status IS NOT OLD.status OR NEW.quantity IS NOT OLD.quantity OR NEW.is_on_back_order IS NOT OLD.is_on_back_order OR NEW.location IS NOT OLD.location)
BEGIN
    INSERT INTO sync_intents (id, item_id, made_at, kind, copy_name, copy_color, copy_status, copy_quantity, copy_is_on_back_order, copy_location, to_name, to_color, to_status, to_quantity, to_is_on_back_order, to_location, adjust_by)
    SELECT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))), NEW.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
           CASE WHEN context.adjusted_by IS NULL THEN 'set' ELSE 'adjust' END,
           OLD.name, OLD.color, OLD.status, OLD.quantity, OLD.is_on_back_order, OLD.location, NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order, NEW.location, context.adjusted_by
    FROM (SELECT 1) LEFT JOIN item_event_context AS context ON context.item_id = NEW.id;
END;

CREATE TRIGGER items_capture_delete
AFTER DELETE ON items
WHEN (SELECT capturing FROM sync_replica) = 1
BEGIN
    INSERT INTO sync_intents (id, item_id, made_at, kind, copy_name, copy_color, copy_status, copy_quantity, copy_is_on_back_order, copy_location, last_pulled_position)
    SELECT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))), OLD.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'delete', OLD.name, OLD.color, OLD.status, OLD.quantity, OLD.is_on_back_order, OLD.location, pulled_position FROM sync_replica;
END;

-- History stays append-only, with one exception: a pull that brings back an item this replica
-- deleted (the hub refused the delete: someone changed the item meanwhile) clears the
-- replica's own history of it first, since ids are never reused within one history. The hub
-- keeps the item's whole history, this replica's changes included (they were pushed).
DROP TRIGGER item_events_are_never_deleted;
CREATE TRIGGER item_events_are_never_deleted
BEFORE DELETE ON item_events
WHEN coalesce((SELECT capturing FROM sync_replica), 1) = 1
BEGIN
    SELECT RAISE(ABORT, 'item_events is append-only: history cannot be deleted');
END;
