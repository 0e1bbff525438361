-- Where an item is kept: `items.location` (and `drafts.location`), an optional text such as
-- "Shelf B3". Issue 28; the PostgreSQL twin is Migrations/postgres/0008_item_location.sql.
--
-- THE RULE (ItemLocation in Swift): NULL means none; otherwise 1 to 200 characters (Unicode
-- scalars, which length() counts), no control character (C0, DEL, C1), nothing invisible at
-- either end. SQL cannot name every invisible character Swift trims; the CHECK trims the space
-- and the common invisible ones (no-break spaces, zero-width space, word joiner, BOM,
-- ideographic space), so a blank location cannot be written by hand either.
--
-- HISTORY. A location change is a 'changed' event with the pair from_location/to_location and
-- location_changed = 1 (since "no location" is itself NULL); 'added' holds the item's location
-- in to_location. location_changed is 1 or NULL, never 0, so the events written before this
-- migration stay valid as they are: for them NULL reads "not changed".
--
-- REBUILDING item_events. Its CHECK payload_matches_kind must learn that a 'changed' event may
-- change only the location, and SQLite cannot alter a CHECK: the table is rebuilt the way
-- sqlite.org's ALTER TABLE procedure describes (the runner turns foreign keys off around a
-- migration). The triggers on `items` that append to it are dropped first and created again
-- with the location, so no trigger refers to a missing table in between; the append-only
-- triggers, the follow-on guard and the position index go with the old table and are created
-- again unchanged. The copy keeps every event and its position; it reads the old table in key
-- order, which is the new table's order too.

ALTER TABLE items ADD COLUMN location TEXT NULL
    CHECK (location IS NULL OR (length(location) BETWEEN 1 AND 200 AND location = trim(location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*'));

ALTER TABLE drafts ADD COLUMN location TEXT NULL
    CHECK (location IS NULL OR (length(location) BETWEEN 1 AND 200 AND location = trim(location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*'));

DROP TRIGGER items_record_added;
DROP TRIGGER items_record_changes;
DROP TRIGGER items_record_deletion;

CREATE TABLE new_item_events (
    -- The item (lowercase canonical UUID text); it may have been deleted since.
    item_id TEXT NOT NULL
        CHECK (length(item_id) = 36 AND item_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- 1 for the item's first event, then one more for each change.
    version INTEGER NOT NULL
        CHECK (version >= 1),
    -- The tag of ItemEvent: which case this row holds.
    kind TEXT NOT NULL
        CHECK (kind IN ('added', 'changed', 'deleted')),
    -- ISO-8601 UTC, e.g. 2026-11-22T15:04:05.123Z; the time of the transaction that made the change.
    recorded_at TEXT NOT NULL
        CHECK (recorded_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),

    -- Renamed: the old and the new name. 'added': to_name is the item's name.
    from_name TEXT NULL,
    to_name TEXT NULL
        CHECK (to_name IS NULL OR length(trim(to_name, ' ' || char(9, 10, 11, 12, 13))) > 0),
    -- 'changed': 1 when the colour changed (from_color/to_color, NULL meaning no colour), else 0.
    color_changed INTEGER NULL
        CHECK (color_changed IN (0, 1)),
    from_color TEXT NULL
        CHECK (from_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    to_color TEXT NULL
        CHECK (to_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    -- Status changed: the status before and after, tagged like items.status. 'added': to_status….
    from_status TEXT NULL
        CHECK (from_status IN ('in_stock', 'out_of_stock')),
    from_quantity INTEGER NULL,
    from_is_on_back_order INTEGER NULL,
    to_status TEXT NULL
        CHECK (to_status IN ('in_stock', 'out_of_stock')),
    to_quantity INTEGER NULL,
    to_is_on_back_order INTEGER NULL,
    -- Every event's place in commit order (0004).
    position INTEGER NULL CHECK (position >= 1),
    -- Moved: 1 when the location changed (from_location/to_location, NULL meaning none), else
    -- NULL. 'added': to_location is the item's location. Added by 0008, so older events have
    -- NULL here without being rewritten.
    location_changed INTEGER NULL
        CHECK (location_changed = 1),
    from_location TEXT NULL
        CHECK (from_location IS NULL OR (length(from_location) BETWEEN 1 AND 200 AND from_location = trim(from_location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND from_location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*')),
    to_location TEXT NULL
        CHECK (to_location IS NULL OR (length(to_location) BETWEEN 1 AND 200 AND to_location = trim(to_location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND to_location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*')),

    -- one row per (item_id, version), as the key of a WITHOUT ROWID table: the events are stored in
    -- this order, one B-tree instead of a rowid table plus a unique index, which halves the
    -- writes of every change and of this migration on a large inventory.
    PRIMARY KEY (item_id, version),

    -- Each status side is a valid Status or entirely NULL (the rule of items.status).
    CONSTRAINT from_status_columns_match_status CHECK (
        (from_status IS NULL AND from_quantity IS NULL AND from_is_on_back_order IS NULL)
        OR (from_status = 'in_stock' AND from_quantity IS NOT NULL AND from_quantity >= 1 AND from_is_on_back_order IS NULL)
        OR (from_status = 'out_of_stock' AND from_quantity IS NULL AND from_is_on_back_order IS NOT NULL AND from_is_on_back_order IN (0, 1))
    ),
    CONSTRAINT to_status_columns_match_status CHECK (
        (to_status IS NULL AND to_quantity IS NULL AND to_is_on_back_order IS NULL)
        OR (to_status = 'in_stock' AND to_quantity IS NOT NULL AND to_quantity >= 1 AND to_is_on_back_order IS NULL)
        OR (to_status = 'out_of_stock' AND to_quantity IS NULL AND to_is_on_back_order IS NOT NULL AND to_is_on_back_order IN (0, 1))
    ),
    -- An item starts with 'added', and only its first event is one.
    CONSTRAINT added_is_version_one CHECK ((kind = 'added') = (version = 1)),
    -- The tagging rule of ItemEvent: each kind owns exactly its columns.
    CONSTRAINT payload_matches_kind CHECK (
        (kind = 'added'
            AND from_name IS NULL AND to_name IS NOT NULL
            AND color_changed IS NULL AND from_color IS NULL
            AND from_status IS NULL AND to_status IS NOT NULL
            AND location_changed IS NULL AND from_location IS NULL)
        OR
        (kind = 'changed'
            -- renamed: both names, different; or neither
            AND ((from_name IS NULL AND to_name IS NULL)
                 OR (from_name IS NOT NULL AND to_name IS NOT NULL AND from_name IS NOT to_name))
            -- colour changed: flagged, and the two differ; or not flagged and both NULL
            AND color_changed IS NOT NULL
            AND ((color_changed = 0 AND from_color IS NULL AND to_color IS NULL)
                 OR (color_changed = 1 AND from_color IS NOT to_color))
            -- status changed: both sides, different; or neither
            AND ((from_status IS NULL AND to_status IS NULL)
                 OR (from_status IS NOT NULL AND to_status IS NOT NULL
                     AND NOT (from_status IS to_status AND from_quantity IS to_quantity
                              AND from_is_on_back_order IS to_is_on_back_order)))
            -- location changed: flagged, and the two differ; or not flagged and both NULL (coalesce:
            -- a NULL flag must not make the test NULL, which a CHECK lets pass)
            AND ((location_changed IS NULL AND from_location IS NULL AND to_location IS NULL)
                 OR (coalesce(location_changed, 0) = 1 AND from_location IS NOT to_location))
            -- and at least one field changed
            AND (to_name IS NOT NULL OR color_changed = 1 OR to_status IS NOT NULL
                 OR coalesce(location_changed, 0) = 1))
        OR
        (kind = 'deleted'
            AND from_name IS NULL AND to_name IS NULL AND color_changed IS NULL
            AND from_color IS NULL AND to_color IS NULL
            AND from_status IS NULL AND to_status IS NULL
            AND location_changed IS NULL AND from_location IS NULL AND to_location IS NULL)
    )
) STRICT, WITHOUT ROWID;

INSERT INTO new_item_events (item_id, version, kind, recorded_at, from_name, to_name, color_changed, from_color, to_color,
                             from_status, from_quantity, from_is_on_back_order, to_status, to_quantity, to_is_on_back_order, position)
SELECT item_id, version, kind, recorded_at, from_name, to_name, color_changed, from_color, to_color,
       from_status, from_quantity, from_is_on_back_order, to_status, to_quantity, to_is_on_back_order, position
FROM item_events
ORDER BY item_id, version;

DROP TABLE item_events;
ALTER TABLE new_item_events RENAME TO item_events;

CREATE UNIQUE INDEX item_events_by_position ON item_events (position);

CREATE TRIGGER item_events_are_never_deleted
BEFORE DELETE ON item_events
BEGIN
    SELECT RAISE(ABORT, 'item_events is append-only: history cannot be deleted');
END;

CREATE TRIGGER item_events_are_never_updated
BEFORE UPDATE ON item_events
BEGIN
    SELECT RAISE(ABORT, 'item_events is append-only: history cannot be changed');
END;

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

-- The history triggers of 0004, with the location.
CREATE TRIGGER items_record_added
AFTER INSERT ON items
BEGIN
    SELECT RAISE(ABORT, 'items: this id belonged to a deleted item, whose history is kept; an id is never reused (insert the item under a new id)')
    WHERE EXISTS (SELECT 1 FROM item_events WHERE item_id = NEW.id AND version = 1);
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             to_name, to_color, to_status, to_quantity, to_is_on_back_order, to_location, position)
    VALUES (NEW.id, 1, 'added', NEW.updated_at,
            NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order, NEW.location,
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
                             location_changed, from_location, to_location, position)
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
           coalesce((SELECT max(position) FROM item_events), 0) + 1
    FROM (SELECT NEW.status IS NOT OLD.status OR NEW.quantity IS NOT OLD.quantity
                 OR NEW.is_on_back_order IS NOT OLD.is_on_back_order AS status_changed)
    -- The latest event; an item without history (a file whose triggers were dropped) gets
    -- version 1 here, which 0003's CHECK refuses for 'changed': the UPDATE fails loudly.
    LEFT JOIN (SELECT version, recorded_at FROM item_events
               WHERE item_id = NEW.id ORDER BY version DESC LIMIT 1) AS previous ON 1;
END;

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
