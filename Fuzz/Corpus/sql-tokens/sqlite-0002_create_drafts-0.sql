-- Drafts: items being entered, not yet part of the inventory.
--
-- A draft is a Swift enum too, stored as tagged columns:
--
--   Draft.adding(Item)        kind = 'adding',      source_item_id NULL
--   Draft.duplicating(Item)   kind = 'duplicating', source_item_id = the id of the item copied
--
-- Both cases carry an Item, whose columns (item_id .. is_on_back_order) follow the same
-- tagging as the items table. Unlike an item, a draft's name may be empty while it is being
-- edited; saving it into `items` requires a non-blank name. Saving inserts the item with
-- id = item_id and deletes the draft in one transaction; cancelling deletes the draft.

CREATE TABLE drafts (
    -- The draft's own id (lowercase canonical UUID text, time-ordered UUIDv7).
    id TEXT NOT NULL PRIMARY KEY
        CHECK (length(id) = 36 AND id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),

    -- The tag of Draft: which case this row holds.
    kind TEXT NOT NULL
        CHECK (kind IN ('adding', 'duplicating')),
    -- Draft.duplicating: the item this draft was copied from. Deliberately not a foreign
    -- key: a duplicate stays valid, and still saves, after its source item is deleted.
    source_item_id TEXT NULL
        CHECK (source_item_id IS NULL OR (length(source_item_id) = 36 AND source_item_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')),

    -- The item the draft will become: its id (new, never an existing item's), name, colour, status.
    item_id TEXT NOT NULL UNIQUE
        CHECK (length(item_id) = 36 AND item_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- May be empty while editing (see above).
    name TEXT NOT NULL,
    color TEXT NULL
        CHECK (color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    status TEXT NOT NULL
        CHECK (status IN ('in_stock', 'out_of_stock')),
    quantity INTEGER NULL,
    is_on_back_order INTEGER NULL,

    created_at TEXT NOT NULL
        CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    updated_at TEXT NOT NULL
        CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),

    -- The tagging rule of Draft: only a duplicate names a source item.
    CONSTRAINT source_matches_kind CHECK (
        (kind = 'adding' AND source_item_id IS NULL)
        OR
        (kind = 'duplicating' AND source_item_id IS NOT NULL)
    ),
    -- The tagging rule of the draft's Status, as in `items`.
    CONSTRAINT status_columns_match_status CHECK (
        (status = 'in_stock' AND quantity IS NOT NULL AND quantity >= 1 AND is_on_back_order IS NULL)
        OR
        (status = 'out_of_stock' AND quantity IS NULL AND is_on_back_order IS NOT NULL AND is_on_back_order IN (0, 1))
    )
) STRICT;