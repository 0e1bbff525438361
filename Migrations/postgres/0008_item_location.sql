-- Where an item is kept: `items.location` (and `drafts.location`), an optional text such as
-- "Shelf B3". Issue 28; the SQLite twin (with the full explanation) is
-- Migrations/sqlite/0008_item_location.sql.
--
-- THE RULE (ItemLocation in Swift): NULL means none; otherwise at most 200 characters, no
-- control character, nothing invisible at either end. The CHECKs say what SQL can say in any
-- server encoding (this server may run SQL_ASCII, where text is bytes): not empty, at most
-- 800 bytes (200 characters of at most four bytes each), no space at either end, no C0 control
-- character or DEL. Stockroom checks the rest (C1 controls, the exact length, invisible
-- characters) before it writes.
--
-- HISTORY. A location change is a 'changed' event with the pair from_location/to_location and
-- location_changed = 1 ("no location" being NULL); 'added' holds the item's location in
-- to_location. location_changed is 1 or NULL, never 0, so the events written before this
-- migration stay valid as they are and the new columns need no rewrite of the table: the
-- CHECK payload_matches_kind is replaced (one scan to validate it), and the trigger function
-- of 0004 is replaced with the location added; the trigger items_record_changes is created
-- again so that an UPDATE of the location alone fires it.

ALTER TABLE items ADD COLUMN location text NULL
    CHECK (location IS NULL OR (char_length(location) >= 1 AND octet_length(location) <= 800 AND location = btrim(location, ' ') AND location !~ '[\x01-\x1f\x7f]'));

ALTER TABLE drafts ADD COLUMN location text NULL
    CHECK (location IS NULL OR (char_length(location) >= 1 AND octet_length(location) <= 800 AND location = btrim(location, ' ') AND location !~ '[\x01-\x1f\x7f]'));

ALTER TABLE item_events
    ADD COLUMN location_changed smallint NULL CHECK (location_changed = 1),
    ADD COLUMN from_location text NULL CHECK (from_location IS NULL OR (char_length(from_location) >= 1 AND octet_length(from_location) <= 800 AND from_location = btrim(from_location, ' ') AND from_location !~ '[\x01-\x1f\x7f]')),
    ADD COLUMN to_location text NULL CHECK (to_location IS NULL OR (char_length(to_location) >= 1 AND octet_length(to_location) <= 800 AND to_location = btrim(to_location, ' ') AND to_location !~ '[\x01-\x1f\x7f]'));

ALTER TABLE item_events DROP CONSTRAINT payload_matches_kind;
ALTER TABLE item_events ADD CONSTRAINT payload_matches_kind CHECK (
    (kind = 'added'
        AND from_name IS NULL AND to_name IS NOT NULL
        AND color_changed IS NULL AND from_color IS NULL
        AND from_status IS NULL AND to_status IS NOT NULL
        AND location_changed IS NULL AND from_location IS NULL)
    OR
    (kind = 'changed'
        -- renamed: both names, different; or neither
        AND ((from_name IS NULL AND to_name IS NULL)
             OR (from_name IS NOT NULL AND to_name IS NOT NULL AND from_name IS DISTINCT FROM to_name))
        -- colour changed: flagged, and the two differ; or not flagged and both NULL
        AND color_changed IS NOT NULL
        AND ((color_changed = 0 AND from_color IS NULL AND to_color IS NULL)
             OR (color_changed = 1 AND from_color IS DISTINCT FROM to_color))
        -- status changed: both sides, different; or neither
        AND ((from_status IS NULL AND to_status IS NULL)
             OR (from_status IS NOT NULL AND to_status IS NOT NULL
                 AND NOT (from_status IS NOT DISTINCT FROM to_status AND from_quantity IS NOT DISTINCT FROM to_quantity
                          AND from_is_on_back_order IS NOT DISTINCT FROM to_is_on_back_order)))
        -- location changed: flagged, and the two differ; or not flagged and both NULL (coalesce:
        -- a NULL flag must not make the test NULL, which a CHECK lets pass)
        AND ((location_changed IS NULL AND from_location IS NULL AND to_location IS NULL)
             OR (coalesce(location_changed, 0) = 1 AND from_location IS DISTINCT FROM to_location))
        -- and at least one field changed
        AND (to_name IS NOT NULL OR color_changed = 1 OR to_status IS NOT NULL
             OR coalesce(location_changed, 0) = 1))
    OR
    (kind = 'deleted'
        AND from_name IS NULL AND to_name IS NULL AND color_changed IS NULL
        AND from_color IS NULL AND to_color IS NULL
        AND from_status IS NULL AND to_status IS NULL
        AND location_changed IS NULL AND from_location IS NULL AND to_location IS NULL)
);

CREATE OR REPLACE FUNCTION items_record_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    previous_version bigint;
    previous_time text;
    changed_time text;
    status_changed boolean;
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF EXISTS (SELECT 1 FROM item_events WHERE item_id = NEW.id AND version = 1) THEN
            RAISE EXCEPTION 'items: this id belonged to a deleted item, whose history is kept; an id is never reused (insert the item under a new id)'
                USING ERRCODE = 'restrict_violation';
        END IF;
        INSERT INTO item_events (item_id, version, kind, recorded_at,
                                 to_name, to_color, to_status, to_quantity, to_is_on_back_order, to_location)
        VALUES (NEW.id, 1, 'added', NEW.updated_at,
                NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order, NEW.location);
        RETURN NULL;
    END IF;

    SELECT version, recorded_at INTO previous_version, previous_time
    FROM item_events WHERE item_id = OLD.id ORDER BY version DESC LIMIT 1;
    -- Compared byte by byte (COLLATE "C"), as the column is: a language collation may skip
    -- punctuation.
    changed_time := greatest(previous_time COLLATE "C",
                             to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') COLLATE "C");

    IF TG_OP = 'DELETE' THEN
        INSERT INTO item_events (item_id, version, kind, recorded_at)
        VALUES (OLD.id, coalesce(previous_version, 0) + 1, 'deleted', changed_time);
        RETURN NULL;
    END IF;

    status_changed := NEW.status IS DISTINCT FROM OLD.status OR NEW.quantity IS DISTINCT FROM OLD.quantity
        OR NEW.is_on_back_order IS DISTINCT FROM OLD.is_on_back_order;
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             from_name, to_name, color_changed, from_color, to_color,
                             from_status, from_quantity, from_is_on_back_order,
                             to_status, to_quantity, to_is_on_back_order,
                             location_changed, from_location, to_location)
    VALUES (NEW.id, coalesce(previous_version, 0) + 1, 'changed', changed_time,
            CASE WHEN NEW.name IS DISTINCT FROM OLD.name THEN OLD.name END,
            CASE WHEN NEW.name IS DISTINCT FROM OLD.name THEN NEW.name END,
            CASE WHEN NEW.color IS DISTINCT FROM OLD.color THEN 1 ELSE 0 END,
            CASE WHEN NEW.color IS DISTINCT FROM OLD.color THEN OLD.color END,
            CASE WHEN NEW.color IS DISTINCT FROM OLD.color THEN NEW.color END,
            CASE WHEN status_changed THEN OLD.status END,
            CASE WHEN status_changed THEN OLD.quantity END,
            CASE WHEN status_changed THEN OLD.is_on_back_order END,
            CASE WHEN status_changed THEN NEW.status END,
            CASE WHEN status_changed THEN NEW.quantity END,
            CASE WHEN status_changed THEN NEW.is_on_back_order END,
            CASE WHEN NEW.location IS DISTINCT FROM OLD.location THEN 1 END,
            CASE WHEN NEW.location IS DISTINCT FROM OLD.location THEN OLD.location END,
            CASE WHEN NEW.location IS DISTINCT FROM OLD.location THEN NEW.location END);
    RETURN NULL;
END;
$$;

DROP TRIGGER items_record_changes ON items;
CREATE TRIGGER items_record_changes
AFTER UPDATE OF name, color, status, quantity, is_on_back_order, location ON items
FOR EACH ROW WHEN (NEW.name IS DISTINCT FROM OLD.name OR NEW.color IS DISTINCT FROM OLD.color
                   OR NEW.status IS DISTINCT FROM OLD.status OR NEW.quantity IS DISTINCT FROM OLD.quantity
                   OR NEW.is_on_back_order IS DISTINCT FROM OLD.is_on_back_order
                   OR NEW.location IS DISTINCT FROM OLD.location)
EXECUTE FUNCTION items_record_history();
