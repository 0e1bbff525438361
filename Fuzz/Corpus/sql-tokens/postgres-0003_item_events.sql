-- The history of every item on PostgreSQL: one row per change, never edited, never deleted.
-- The same table as Migrations/sqlite/0003_item_events.sql, whose comments explain the
-- layout (one command, one version; a 'changed' event carries the set of fields it changed
-- as (from, to) pairs; versions 1, 2, 3, … with 'added' first). text + CHECK rather than
-- enum types and COLLATE "C" for the reasons given in 0001_create_items.sql. SQLite's
-- `a IS NOT b` is spelled `a IS DISTINCT FROM b` here.
--
--   ItemEvent.added(Item)            kind = 'added'    to_name, to_color, to_status… hold the item
--   ItemEvent.changed(ItemChanges)   kind = 'changed'  one pair per field that changed
--   ItemEvent.deleted                kind = 'deleted'  no payload
--
-- APPEND-ONLY. Triggers refuse UPDATE, DELETE and TRUNCATE, from Stockroom or from psql.
-- History outlives the item: deliberately no foreign key to `items`.

CREATE TABLE item_events (
    -- The item (lowercase canonical UUID text); it may have been deleted since.
    item_id text COLLATE "C" NOT NULL
        CHECK (item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    -- 1 for the item's first event, then one more for each change.
    version bigint NOT NULL
        CHECK (version >= 1),
    -- The tag of ItemEvent: which case this row holds.
    kind text COLLATE "C" NOT NULL
        CHECK (kind IN ('added', 'changed', 'deleted')),
    -- ISO-8601 UTC, e.g. 2026-11-22T15:04:05.123Z; the time of the transaction that made the change.
    recorded_at text COLLATE "C" NOT NULL
        CHECK (recorded_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'),

    -- Renamed: the old and the new name. 'added': to_name is the item's name.
    from_name text COLLATE "C" NULL,
    to_name text COLLATE "C" NULL
        CHECK (to_name IS NULL OR length(btrim(to_name, ' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13))) > 0),
    -- 'changed': 1 when the colour changed (from_color/to_color, NULL meaning no colour), else 0.
    color_changed smallint NULL
        CHECK (color_changed IN (0, 1)),
    from_color text COLLATE "C" NULL
        CHECK (from_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    to_color text COLLATE "C" NULL
        CHECK (to_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    -- Status changed: the status before and after, tagged like items.status. 'added': to_status….
    from_status text COLLATE "C" NULL
        CHECK (from_status IN ('in_stock', 'out_of_stock')),
    from_quantity bigint NULL,
    from_is_on_back_order smallint NULL,
    to_status text COLLATE "C" NULL
        CHECK (to_status IN ('in_stock', 'out_of_stock')),
    to_quantity bigint NULL,
    to_is_on_back_order smallint NULL,

    -- One row per (item_id, version).
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
            AND from_status IS NULL AND to_status IS NOT NULL)
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
            -- and at least one field changed
            AND (to_name IS NOT NULL OR color_changed = 1 OR to_status IS NOT NULL))
        OR
        (kind = 'deleted'
            AND from_name IS NULL AND to_name IS NULL AND color_changed IS NULL
            AND from_color IS NULL AND to_color IS NULL
            AND from_status IS NULL AND to_status IS NULL)
    )
);

-- No item has an empty history: each existing item gets version 1, 'added' with the item as it
-- stands now, dated by its last change (updated_at), since the history before is unknown.
INSERT INTO item_events (item_id, version, kind, recorded_at, to_name, to_color, to_status, to_quantity, to_is_on_back_order)
SELECT id, 1, 'added', updated_at, name, color, status, quantity, is_on_back_order
FROM items
ORDER BY id;

-- Append-only: history is never rewritten. The message is SQLite's RAISE(ABORT, …) word for
-- word; SQLSTATE 23001 (restrict_violation) files the refusal with the constraints, as
-- SQLite files its trigger refusals.
CREATE FUNCTION item_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION 'item_events is append-only: history cannot be changed' USING ERRCODE = 'restrict_violation';
    END IF;
    RAISE EXCEPTION 'item_events is append-only: history cannot be deleted' USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER item_events_are_never_updated
BEFORE UPDATE ON item_events
FOR EACH ROW EXECUTE FUNCTION item_events_refuse_change();

CREATE TRIGGER item_events_are_never_deleted
BEFORE DELETE ON item_events
FOR EACH ROW EXECUTE FUNCTION item_events_refuse_change();

-- TRUNCATE skips row triggers; it would empty the history in one statement.
CREATE TRIGGER item_events_are_never_truncated
BEFORE TRUNCATE ON item_events
FOR EACH STATEMENT EXECUTE FUNCTION item_events_refuse_change();
