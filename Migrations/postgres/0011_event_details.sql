-- What a history event knows beyond the old and the new values. Issue 35 (docs/replicas.md,
-- "How it is stored"); the SQLite twin (with the full explanation) is
-- Migrations/sqlite/0011_event_details.sql.
--
--   adjusted_by  the write was an adjustment by N units: N, never 0, only on 'changed'.
--   origin       the replica whose intent the write applied, on a hub; NULL for a local change.
--   intent_id    that intent; NULL exactly when origin is.
--
-- A writer with something to say puts it in `item_event_context` in its own transaction, just
-- before its write to `items`, and deletes it right after; the history function reads the row
-- for the item it records (one lookup by primary key) and copies it into the event. Everything
-- else the function does is 0008's: the turn (0004's advisory lock, taken by the statement
-- trigger items_take_history_turn), the position (item_events_guard) and the notification
-- (0009's statement trigger on item_events) are untouched.
--
-- The events written before have NULL in the new columns, which the new CHECKs accept: the
-- columns are added without a rewrite, the CHECKs validated by one scan.

ALTER TABLE item_events
    ADD COLUMN adjusted_by bigint NULL CHECK (adjusted_by IS NULL OR adjusted_by <> 0),
    ADD COLUMN origin text COLLATE "C" NULL
        CHECK (origin IS NULL OR origin ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    ADD COLUMN intent_id text COLLATE "C" NULL
        CHECK (intent_id IS NULL OR intent_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    -- An adjustment moves the quantity, so it is a 'changed' event.
    ADD CONSTRAINT adjustment_is_a_change CHECK (adjusted_by IS NULL OR kind = 'changed'),
    -- An intent comes from a replica, and a replica's change is always an intent.
    ADD CONSTRAINT origin_with_intent CHECK ((origin IS NULL) = (intent_id IS NULL));

CREATE TABLE item_event_context (
    -- The item the writer is about to write (lowercase canonical UUID text).
    item_id text COLLATE "C" NOT NULL PRIMARY KEY
        CHECK (item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    -- The columns of the same names in item_events, with the same rules; adjusted_by is copied
    -- only into a 'changed' event.
    adjusted_by bigint NULL
        CHECK (adjusted_by IS NULL OR adjusted_by <> 0),
    origin text COLLATE "C" NULL
        CHECK (origin IS NULL OR origin ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    intent_id text COLLATE "C" NULL
        CHECK (intent_id IS NULL OR intent_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),

    CONSTRAINT origin_with_intent CHECK ((origin IS NULL) = (intent_id IS NULL))
);

-- 0008's function, with the context copied into each event.
CREATE OR REPLACE FUNCTION items_record_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    previous_version bigint;
    previous_time text;
    changed_time text;
    status_changed boolean;
    context item_event_context%ROWTYPE;
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF EXISTS (SELECT 1 FROM item_events WHERE item_id = NEW.id AND version = 1) THEN
            RAISE EXCEPTION 'items: this id belonged to a deleted item, whose history is kept; an id is never reused (insert the item under a new id)'
                USING ERRCODE = 'restrict_violation';
        END IF;
        SELECT * INTO context FROM item_event_context WHERE item_id = NEW.id;
        INSERT INTO item_events (item_id, version, kind, recorded_at,
                                 to_name, to_color, to_status, to_quantity, to_is_on_back_order, to_location,
                                 origin, intent_id)
        VALUES (NEW.id, 1, 'added', NEW.updated_at,
                NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order, NEW.location,
                context.origin, context.intent_id);
        RETURN NULL;
    END IF;

    SELECT version, recorded_at INTO previous_version, previous_time
    FROM item_events WHERE item_id = OLD.id ORDER BY version DESC LIMIT 1;
    -- Compared byte by byte (COLLATE "C"), as the column is: a language collation may skip
    -- punctuation.
    changed_time := greatest(previous_time COLLATE "C",
                             to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') COLLATE "C");
    -- The id never changes (items_id_never_changes), so OLD.id names the item on UPDATE too.
    SELECT * INTO context FROM item_event_context WHERE item_id = OLD.id;

    IF TG_OP = 'DELETE' THEN
        INSERT INTO item_events (item_id, version, kind, recorded_at, origin, intent_id)
        VALUES (OLD.id, coalesce(previous_version, 0) + 1, 'deleted', changed_time,
                context.origin, context.intent_id);
        RETURN NULL;
    END IF;

    status_changed := NEW.status IS DISTINCT FROM OLD.status OR NEW.quantity IS DISTINCT FROM OLD.quantity
        OR NEW.is_on_back_order IS DISTINCT FROM OLD.is_on_back_order;
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             from_name, to_name, color_changed, from_color, to_color,
                             from_status, from_quantity, from_is_on_back_order,
                             to_status, to_quantity, to_is_on_back_order,
                             location_changed, from_location, to_location,
                             adjusted_by, origin, intent_id)
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
            CASE WHEN NEW.location IS DISTINCT FROM OLD.location THEN NEW.location END,
            context.adjusted_by, context.origin, context.intent_id);
    RETURN NULL;
END;
$$;
