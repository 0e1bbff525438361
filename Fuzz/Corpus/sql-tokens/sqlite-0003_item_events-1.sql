-- `items update --if-version N` compares with it.
--
-- APPEND-ONLY. Triggers refuse UPDATE and DELETE, from Stockroom or from the sqlite3 shell.
-- History outlives the item: deliberately no foreign key to `items`.

CREATE TABLE item_events (
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
            AND from_status IS NULL AND to_status IS NOT NULL)
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
            -- and at least one field changed
            AND (to_name IS NOT NULL OR color_changed = 1 OR to_status IS NOT NULL))
        OR
        (kind = 'deleted'
            AND from_name IS NULL AND to_name IS NULL AND color_changed IS NULL
            AND from_color IS NULL AND to_color IS NULL
            AND from_status IS NULL AND to_status IS NULL)
    )
) STRICT, WITHOUT ROWID;