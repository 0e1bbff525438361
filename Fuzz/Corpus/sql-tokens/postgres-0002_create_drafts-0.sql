-- Drafts on PostgreSQL: items being entered, not yet part of the inventory. The same table
-- as Migrations/sqlite/0002_create_drafts.sql; text + CHECK rather than enum types and
-- COLLATE "C" for the reasons given in 0001_create_items.sql.
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
    id text COLLATE "C" NOT NULL PRIMARY KEY
        CHECK (id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),

    -- The tag of Draft: which case this row holds.
    kind text COLLATE "C" NOT NULL
        CHECK (kind IN ('adding', 'duplicating')),
    -- Draft.duplicating: the item this draft was copied from. Deliberately not a foreign
    -- key: a duplicate stays valid, and still saves, after its source item is deleted.
    source_item_id text COLLATE "C" NULL
        CHECK (source_item_id IS NULL OR source_item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),

    -- The item the draft will become: its id (new, never an existing item's), name, colour, status.
    item_id text COLLATE "C" NOT NULL UNIQUE
        CHECK (item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    -- May be empty while editing (see above).
    name text COLLATE "C" NOT NULL,
    color text COLLATE "C" NULL
        CHECK (color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    status text COLLATE "C" NOT NULL
        CHECK (status IN ('in_stock', 'out_of_stock')),
    quantity bigint NULL,
    is_on_back_order smallint NULL,

    created_at text COLLATE "C" NOT NULL
        CHECK (created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'),
    updated_at text COLLATE "C" NOT NULL
        CHECK (updated_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'),

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
);