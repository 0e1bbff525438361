-- What a history event knows beyond the old and the new values. Issue 35 (docs/replicas.md,
-- "How it is stored"); the PostgreSQL twin is Migrations/postgres/0011_event_details.sql.
--
--   adjusted_by  the write was an adjustment by N units (`items adjust`, the HTTP adjustments,
--                the counter's buttons): N, never 0, and only on a 'changed' event. A write
--                that sets the quantity (`items update`, the sqlite3 shell) has NULL here.
--   origin       the replica whose intent the write applied, on a hub; NULL for a local change.
--   intent_id    that intent; NULL exactly when origin is.
--
-- HOW A WRITER SAYS IT. The triggers on `items` cannot know why a row changed, so a writer
-- that has something to say puts it in `item_event_context`, in its own transaction, just
-- before its write to `items`, and deletes it right after (StoreConnection.withEventContext
-- in Swift). The history triggers copy the row for the item they record, if there is one,
-- into the event they append: lookups by primary key, in a table that is empty outside such a
-- write, so an import of a million rows pays two probes of an empty B-tree per row.
-- Since the row never outlives its transaction, no other connection ever sees one, and a
-- write from the sqlite3 shell finds none: its events have NULL in the three columns.
--
-- THE ADDED EVENT STAYS A VALUES. 'added' looks the context up once per column (two probes)
-- rather than joining it in an INSERT ... SELECT as 'changed' and 'deleted' do: an INSERT whose
-- SELECT reads item_events (here the position) is run through a temporary table (EXPLAIN shows
-- its OpenEphemeral), which 0008's 'added' avoided. Measured on a loaded 2-core machine with
-- the sqlite3 shell, 100,000 items in one INSERT ... SELECT into a new file, three alternating
-- runs each (/usr/bin/time): at 0010, 3.17-3.36 s user, 3.61-3.76 s system; with the join,
-- 3.67-3.83 s user, 5.75-5.91 s system; as written here, 3.09-3.28 s user, 3.65-3.95 s
-- system, the same as 0010. An UPDATE of the 100,000 costs the same before and after (its
-- trigger had the join form already).
--
-- NO REBUILD. The events written before this migration have NULL in the new columns, which
-- every new CHECK accepts, so the columns are added with ALTER TABLE (a scan of item_events
-- per CHECK, no rewrite) rather than by rebuilding the table as 0008 had to. SQLite adds no
-- table constraint to an existing table; the rules across columns are named constraints of
-- the columns instead, which SQLite checks the same way.

ALTER TABLE item_events ADD COLUMN adjusted_by INTEGER NULL
    -- An adjustment moves the quantity, so it is a 'changed' event, and it moved it by some units.
    CONSTRAINT adjustment_is_a_change CHECK (adjusted_by IS NULL OR (adjusted_by <> 0 AND kind = 'changed'));

ALTER TABLE item_events ADD COLUMN origin TEXT NULL
    CHECK (origin IS NULL OR (length(origin) = 36 AND origin GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'));

ALTER TABLE item_events ADD COLUMN intent_id TEXT NULL
    CHECK (intent_id IS NULL OR (length(intent_id) = 36 AND intent_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'))
    -- An intent comes from a replica, and a replica's change is always an intent.
    CONSTRAINT origin_with_intent CHECK ((origin IS NULL) = (intent_id IS NULL));

CREATE TABLE item_event_context (
    -- The item the writer is about to write (lowercase canonical UUID text).
    item_id TEXT NOT NULL PRIMARY KEY
        CHECK (length(item_id) = 36 AND item_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- The columns of the same names in item_events, with the same rules; adjusted_by is copied
    -- only into a 'changed' event (an adjustment never adds or deletes the item).
    adjusted_by INTEGER NULL
        CHECK (adjusted_by IS NULL OR adjusted_by <> 0),
    origin TEXT NULL
        CHECK (origin IS NULL OR (length(origin) = 36 AND origin GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')),
    intent_id TEXT NULL
        CHECK (intent_id IS NULL OR (length(intent_id) = 36 AND intent_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')),

    CONSTRAINT origin_with_intent CHECK ((origin IS NULL) = (intent_id IS NULL))
) STRICT, WITHOUT ROWID;

DROP TRIGGER items_record_added;
DROP TRIGGER items_record_changes;
DROP TRIGGER items_record_deletion;

-- The history triggers of 0008, each reading the writer's context for its item.
CREATE TRIGGER items_record_added
AFTER INSERT ON items
BEGIN
    SELECT RAISE(ABORT, 'items: this id belonged to a deleted item, whose history is kept; an id is never reused (insert the item under a new id)')
    WHERE EXISTS (SELECT 1 FROM item_events WHERE item_id = NEW.id AND version = 1);
    -- VALUES with a lookup per column, not INSERT ... SELECT with a join (see the header).
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             to_name, to_color, to_status, to_quantity, to_is_on_back_order, to_location,
                             origin, intent_id, position)
    VALUES (NEW.id, 1, 'added', NEW.updated_at,
            NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order, NEW.location,
            (SELECT origin FROM item_event_context WHERE item_id = NEW.id),
            (SELECT intent_id FROM item_event_context WHERE item_id = NEW.id),
            coalesce((SELECT max(position) FROM item_events), 0) + 1);
END;

CREATE TRIGGER items_record_changes
AFTER UPDATE OF name, color, status, quantity, is_on_back_order, location ON items
WHEN NEW.name IS NOT OLD.name OR NEW.color IS NOT OLD.color
  OR NEW.status IS NOT OLD.status OR NEW.quantity IS NOT OLD.quantity
  OR NEW.is_on_back_order IS NOT OLD.is_on_back_order OR NEW.location IS NOT OLD.location
BEGIN
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             from_name, to_name, color_changed, from_color, to_color,
                             from_status, from_quantity, from_is_on_back_order,
                             to_status, to_quantity, to_is_on_back_order,
                             location_changed, from_location, to_location,
                             adjusted_by, origin, intent_id, position)
    SELECT NEW.id, coalesce(previous.version, 0) + 1, 'changed',
           max(coalesce(previous.recorded_at, ''), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
           CASE WHEN NEW.name IS NOT OLD.name THEN OLD.name END,
           CASE WHEN NEW.name IS NOT OLD.name THEN NEW.name END,
           NEW.color IS NOT OLD.color,
           CASE WHEN NEW.color IS NOT OLD.color THEN OLD.color END,
           CASE WHEN NEW.color IS NOT OLD.color THEN NEW.color END,
           CASE WHEN status_changed THEN OLD.status END,
           CASE WHEN status_changed THEN OLD.quantity END,
           CASE WHEN status_changed THEN OLD.is_on_back_order END,
           CASE WHEN status_changed THEN NEW.status END,
           CASE WHEN status_changed THEN NEW.quantity END,
           CASE WHEN status_changed THEN NEW.is_on_back_order END,
           CASE WHEN NEW.location IS NOT OLD.location THEN 1 END,
           CASE WHEN NEW.location IS NOT OLD.location THEN OLD.location END,
           CASE WHEN NEW.location IS NOT OLD.location THEN NEW.location END,
           context.adjusted_by, context.origin, context.intent_id,
           coalesce((SELECT max(position) FROM item_events), 0) + 1
    FROM (SELECT NEW.status IS NOT OLD.status OR NEW.quantity IS NOT OLD.quantity
                 OR NEW.is_on_back_order IS NOT OLD.is_on_back_order AS status_changed)
    -- The latest event; an item without history (a file whose triggers were dropped) gets
    -- version 1 here, which 0003's CHECK refuses for 'changed': the UPDATE fails loudly.
    LEFT JOIN (SELECT version, recorded_at FROM item_events
               WHERE item_id = NEW.id ORDER BY version DESC LIMIT 1) AS previous ON 1
    LEFT JOIN item_event_context AS context ON context.item_id = NEW.id;
END;

CREATE TRIGGER items_record_deletion
AFTER DELETE ON items
BEGIN
    INSERT INTO item_events (item_id, version, kind, recorded_at, origin, intent_id, position)
    SELECT OLD.id, coalesce(previous.version, 0) + 1, 'deleted',
           max(coalesce(previous.recorded_at, ''), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
           context.origin, context.intent_id,
           coalesce((SELECT max(position) FROM item_events), 0) + 1
    FROM (SELECT 1)
    LEFT JOIN (SELECT version, recorded_at FROM item_events
               WHERE item_id = OLD.id ORDER BY version DESC LIMIT 1) AS previous ON 1
    LEFT JOIN item_event_context AS context ON context.item_id = OLD.id;
END;
