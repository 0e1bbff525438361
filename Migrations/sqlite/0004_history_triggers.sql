-- The database keeps the history itself, whoever writes `items`: Stockroom, the sqlite3 shell,
-- or any other program. Triggers on `items` append the matching `item_events` row in the same
-- transaction as the change (the layout of an event is explained in 0003_item_events.sql):
--
--   INSERT INTO items ...        version 1, 'added', holding the new row
--   UPDATE items SET ...         the next version, 'changed', with a (from, to) pair for each of
--                                name, colour and status that changed; nothing at all when none
--                                did (an UPDATE of updated_at alone, or a no-op, records nothing)
--   DELETE FROM items ...        the next version, 'deleted'
--
-- Stockroom writes no event itself: these triggers are the one source of history.
--
-- TIMES. 'added' is dated with the new row's updated_at (an imported item keeps the time its
-- file gives; an item added now is dated now). 'changed' and 'deleted' are dated with the
-- time the database made the change (SQLite's 'now', in the format of the CHECKs above) and
-- never earlier than the item's previous event: a row's updated_at written by hand or by an
-- import may be old, but history never goes back in time.
--
-- AN ID NEVER CHANGES, AND IS NEVER REUSED. `UPDATE items SET id = ...` is refused: the history
-- is keyed by the id, so a new id would be a new item (delete the row and insert the new one,
-- which records both). An INSERT of the id of a deleted item is refused too: its history ends
-- in its deletion and is kept (leave the id out, or generate a new one).
--
-- POSITION. Every event also gets `position`: 1, 2, 3, … across all items, in the order the
-- events were committed, without gaps, unique. It lets a reader (the web server's event stream)
-- ask for "every event after position N" and miss nothing. SQLite runs one writer at a time,
-- so max(position) + 1 inside the write transaction is commit order. Existing events are
-- numbered below in the order they happened as well as their times tell.
--
-- A HAND-WRITTEN EVENT must follow on: `INSERT INTO item_events` by hand is refused unless its
-- version is the item's latest + 1 (1 being 'added', as 0003's CHECK says), nothing follows a
-- 'deleted' event, its recorded_at is not earlier than the previous event's, and its position
-- is the latest position + 1. These are the rules `stockroom check` replays; it reports every
-- break of them found in a file written before this migration or with the triggers dropped.
--
-- COST. 0003 dropped two INSERT triggers on item_events that tripled the cost of adding an
-- item. The guard below does one indexed lookup: the previous event by its key (item_id,
-- version - 1), only for version 2 and later (by induction that gives gapless versions: the
-- key refuses a repeated version, and each version needs the one before it), plus one lookup
-- of the latest position in its index. BENCHMARKS.md ("Issue 20") has the figures.
--
-- `stockroom copy` moves events verbatim (positions included) and sets these triggers aside
-- inside its transaction while it loads, then creates them again from this schema's own SQL.

-- position: filled for every event from this migration on (the guard below refuses a new
-- event without one); NULL never survives this migration.
ALTER TABLE item_events ADD COLUMN position INTEGER NULL CHECK (position >= 1);

-- Number the existing events: by time, an item's own events kept in version order even where
-- a time went back (the latest time so far of the item stands for each event), then by id.
DROP TRIGGER item_events_are_never_updated;

UPDATE item_events SET position = numbered.position
FROM (
    SELECT item_id, version,
           row_number() OVER (ORDER BY happened, item_id, version) AS position
    FROM (SELECT item_id, version,
                 max(recorded_at) OVER (PARTITION BY item_id ORDER BY version) AS happened
          FROM item_events)
) AS numbered
WHERE item_events.item_id = numbered.item_id AND item_events.version = numbered.version;

-- Append-only again (the trigger of 0003, unchanged).
CREATE TRIGGER item_events_are_never_updated
BEFORE UPDATE ON item_events
BEGIN
    SELECT RAISE(ABORT, 'item_events is append-only: history cannot be changed');
END;

-- One event per position; `events after N` reads this index.
CREATE UNIQUE INDEX item_events_by_position ON item_events (position);

-- The guard: a new event follows on from the item's previous one (see above).
CREATE TRIGGER item_events_follow_on
BEFORE INSERT ON item_events
BEGIN
    SELECT RAISE(ABORT, 'item_events: position must be the latest position + 1 (SELECT max(position) + 1 FROM item_events)')
    WHERE NEW.position IS NOT coalesce((SELECT max(position) FROM item_events), 0) + 1;
    SELECT RAISE(ABORT, 'item_events: version must be the item''s latest version + 1, after an event that is not ''deleted'' and not later than recorded_at')
    WHERE NEW.version > 1 AND NOT EXISTS (
        SELECT 1 FROM item_events AS previous
        WHERE previous.item_id = NEW.item_id AND previous.version = NEW.version - 1
          AND previous.kind <> 'deleted' AND previous.recorded_at <= NEW.recorded_at);
END;

-- An id never changes (see above).
CREATE TRIGGER items_id_never_changes
BEFORE UPDATE OF id ON items
WHEN NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, 'items: an item''s id never changes (its history is kept under it); delete the item and insert a new one instead');
END;

-- INSERT: version 1, 'added', dated with the row's updated_at. The id of a deleted item is
-- refused with a message rather than the key violation of its version 1.
CREATE TRIGGER items_record_added
AFTER INSERT ON items
BEGIN
    SELECT RAISE(ABORT, 'items: this id belonged to a deleted item, whose history is kept; an id is never reused (insert the item under a new id)')
    WHERE EXISTS (SELECT 1 FROM item_events WHERE item_id = NEW.id AND version = 1);
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             to_name, to_color, to_status, to_quantity, to_is_on_back_order, position)
    VALUES (NEW.id, 1, 'added', NEW.updated_at,
            NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order,
            coalesce((SELECT max(position) FROM item_events), 0) + 1);
END;

-- UPDATE: one 'changed' event with the pairs of the fields that changed; none when the name,
-- colour and status are as they were (the WHEN clause), so such an UPDATE is accepted as is.
CREATE TRIGGER items_record_changes
AFTER UPDATE OF name, color, status, quantity, is_on_back_order ON items
WHEN NEW.name IS NOT OLD.name OR NEW.color IS NOT OLD.color
  OR NEW.status IS NOT OLD.status OR NEW.quantity IS NOT OLD.quantity
  OR NEW.is_on_back_order IS NOT OLD.is_on_back_order
BEGIN
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             from_name, to_name, color_changed, from_color, to_color,
                             from_status, from_quantity, from_is_on_back_order,
                             to_status, to_quantity, to_is_on_back_order, position)
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
           coalesce((SELECT max(position) FROM item_events), 0) + 1
    FROM (SELECT NEW.status IS NOT OLD.status OR NEW.quantity IS NOT OLD.quantity
                 OR NEW.is_on_back_order IS NOT OLD.is_on_back_order AS status_changed)
    -- The latest event; an item without history (a file whose triggers were dropped) gets
    -- version 1 here, which 0003's CHECK refuses for 'changed': the UPDATE fails loudly.
    LEFT JOIN (SELECT version, recorded_at FROM item_events
               WHERE item_id = NEW.id ORDER BY version DESC LIMIT 1) AS previous ON 1;
END;

-- DELETE: the next version, 'deleted'.
CREATE TRIGGER items_record_deletion
AFTER DELETE ON items
BEGIN
    INSERT INTO item_events (item_id, version, kind, recorded_at, position)
    SELECT OLD.id, coalesce(previous.version, 0) + 1, 'deleted',
           max(coalesce(previous.recorded_at, ''), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
           coalesce((SELECT max(position) FROM item_events), 0) + 1
    FROM (SELECT 1)
    LEFT JOIN (SELECT version, recorded_at FROM item_events
               WHERE item_id = OLD.id ORDER BY version DESC LIMIT 1) AS previous ON 1;
END;
