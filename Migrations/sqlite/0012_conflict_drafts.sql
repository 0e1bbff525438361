-- A conflict is a draft: Draft.resolving(Item, conflict: OpenConflict), for a person to resolve
-- (issue 35; docs/replicas.md, "How it is stored"). The PostgreSQL twin is
-- Migrations/postgres/0012_conflict_drafts.sql.
--
--   Draft.resolving(Item)   kind = 'resolving', source_item_id NULL, the conflict_* columns set,
--                           shown_* set, wanted_* set or (for a wanted delete) all NULL
--
-- The draft's id is the conflict's, the id of the intent that caused it, so a conflict opened
-- twice (a push retried after a lost answer) is one row. Its item columns (item_id .. location)
-- are what the person edits: they start as the wanted item (or the shown one), under the
-- conflict's item id. An item may have several open conflicts, one draft each, so the
-- UNIQUE on item_id becomes a partial unique index over the kinds that make a new item.
--
-- The other kinds leave every new column NULL, so the drafts written before this migration
-- stay valid as they are.
--
-- REBUILDING drafts. kind's CHECK and the tagging rule must learn 'resolving', and the UNIQUE
-- on item_id must go; SQLite can alter neither, so the table is rebuilt the way sqlite.org's
-- ALTER TABLE procedure describes, as 0008 rebuilt item_events (the runner turns foreign keys
-- off around a migration; no key or trigger refers to drafts). The copy keeps every draft, its
-- id and its times; the columns keep their order, the new ones last, as PostgreSQL adds them.

CREATE TABLE new_drafts (
    -- The draft's own id (lowercase canonical UUID text, time-ordered UUIDv7); a conflict's
    -- draft has the conflict's id.
    id TEXT NOT NULL PRIMARY KEY
        CHECK (length(id) = 36 AND id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),

    -- The tag of Draft: which case this row holds.
    kind TEXT NOT NULL
        CHECK (kind IN ('adding', 'duplicating', 'resolving')),
    -- Draft.duplicating: the item this draft was copied from. Deliberately not a foreign
    -- key: a duplicate stays valid, and still saves, after its source item is deleted.
    source_item_id TEXT NULL
        CHECK (source_item_id IS NULL OR (length(source_item_id) = 36 AND source_item_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')),

    -- The item the draft will become: its id (new for 'adding' and 'duplicating', the
    -- conflict's item for 'resolving'), name, colour, status and (last) location.
    item_id TEXT NOT NULL
        CHECK (length(item_id) = 36 AND item_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- May be empty while editing.
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
    location TEXT NULL
        CHECK (location IS NULL OR (length(location) BETWEEN 1 AND 200 AND location = trim(location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*')),

    -- Draft.resolving: why (ConflictReason.Case's raw values), the replica it came from (its
    -- id), when the change was made there by its clock (shown, never compared), and whether
    -- shown_* is the hub's item (1) or the replica's last copy of an item the hub deleted (0).
    conflict_reason TEXT NULL
        CHECK (conflict_reason IN ('overtaken', 'oversold', 'quantity_overflow', 'changed_before_delete', 'deleted_before_change', 'resolved_meanwhile')),
    conflict_origin TEXT NULL
        CHECK (conflict_origin IS NULL OR (length(conflict_origin) = 36 AND conflict_origin GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')),
    conflict_made_at TEXT NULL
        CHECK (conflict_made_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    conflict_hub_holds_item INTEGER NULL
        CHECK (conflict_hub_holds_item IN (0, 1)),
    -- 'oversold' and 'quantity_overflow': the adjustment by N the replica made.
    conflict_adjustment INTEGER NULL,
    -- 'oversold': how many units could not be taken (1 or more).
    conflict_missing INTEGER NULL
        CHECK (conflict_missing >= 1),
    -- The item shown: the hub's, or the replica's last copy of an item the hub deleted: every field of an item but its id (the draft's item_id), tagged as in `items`.
    shown_name TEXT NULL,
    shown_color TEXT NULL
        CHECK (shown_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    shown_status TEXT NULL
        CHECK (shown_status IN ('in_stock', 'out_of_stock')),
    shown_quantity INTEGER NULL,
    shown_is_on_back_order INTEGER NULL,
    shown_location TEXT NULL
        CHECK (shown_location IS NULL OR (length(shown_location) BETWEEN 1 AND 200 AND shown_location = trim(shown_location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND shown_location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*')),
    -- The item the replica wanted; all NULL when it wanted the item deleted: every field of an item but its id (the draft's item_id), tagged as in `items`.
    wanted_name TEXT NULL,
    wanted_color TEXT NULL
        CHECK (wanted_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    wanted_status TEXT NULL
        CHECK (wanted_status IN ('in_stock', 'out_of_stock')),
    wanted_quantity INTEGER NULL,
    wanted_is_on_back_order INTEGER NULL,
    wanted_location TEXT NULL
        CHECK (wanted_location IS NULL OR (length(wanted_location) BETWEEN 1 AND 200 AND wanted_location = trim(wanted_location, ' ' || char(160, 8199, 8203, 8239, 8288, 12288, 65279)) AND wanted_location NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || ']*')),

    -- The tagging rule of Draft: only a duplicate names a source item.
    CONSTRAINT source_matches_kind CHECK (
        (kind = 'adding' AND source_item_id IS NULL)
        OR
        (kind = 'duplicating' AND source_item_id IS NOT NULL)
        OR
        (kind = 'resolving' AND source_item_id IS NULL)
    ),
    -- Exactly a conflict's draft has a conflict: its reason, origin, time, flag and item
    -- shown all set; every other kind none of the conflict's columns.
    CONSTRAINT conflict_matches_kind CHECK (
        (kind = 'resolving'
            AND conflict_reason IS NOT NULL AND conflict_origin IS NOT NULL AND conflict_made_at IS NOT NULL
            AND conflict_hub_holds_item IS NOT NULL AND shown_name IS NOT NULL AND shown_status IS NOT NULL)
        OR
        (kind <> 'resolving'
            AND conflict_reason IS NULL AND conflict_origin IS NULL AND conflict_made_at IS NULL
            AND conflict_hub_holds_item IS NULL AND conflict_adjustment IS NULL AND conflict_missing IS NULL
            AND shown_name IS NULL AND shown_color IS NULL AND shown_status IS NULL AND shown_location IS NULL
            AND wanted_name IS NULL AND wanted_color IS NULL AND wanted_status IS NULL AND wanted_location IS NULL)
    ),
    -- Each reason has exactly its own numbers: an oversold item its adjustment and how many
    -- are missing, a quantity overflow its adjustment, the others neither. (coalesce: a NULL
    -- reason must not make the test NULL, which a CHECK lets pass.)
    CONSTRAINT conflict_numbers_match_reason CHECK (
        (conflict_adjustment IS NOT NULL) = (coalesce(conflict_reason, '') IN ('oversold', 'quantity_overflow'))
        AND (conflict_missing IS NOT NULL) = (coalesce(conflict_reason, '') = 'oversold')
    ),
    -- The wanted item is whole, or entirely NULL (a wanted delete).
    CONSTRAINT wanted_is_whole_or_none CHECK (
        (wanted_name IS NULL AND wanted_color IS NULL AND wanted_status IS NULL AND wanted_location IS NULL)
        OR (wanted_name IS NOT NULL AND wanted_status IS NOT NULL)
    ),
    -- The tagging rule of the draft's Status, as in `items`.
    CONSTRAINT status_columns_match_status CHECK (
        (status = 'in_stock' AND quantity IS NOT NULL AND quantity >= 1 AND is_on_back_order IS NULL)
        OR
        (status = 'out_of_stock' AND quantity IS NULL AND is_on_back_order IS NOT NULL AND is_on_back_order IN (0, 1))
    ),
    -- The same rule for the item shown and the item wanted, each a valid Status or all NULL.
    CONSTRAINT shown_status_columns_match_status CHECK (
        (shown_status IS NULL AND shown_quantity IS NULL AND shown_is_on_back_order IS NULL)
        OR (shown_status = 'in_stock' AND shown_quantity IS NOT NULL AND shown_quantity >= 1 AND shown_is_on_back_order IS NULL)
        OR (shown_status = 'out_of_stock' AND shown_quantity IS NULL AND shown_is_on_back_order IS NOT NULL AND shown_is_on_back_order IN (0, 1))
    ),
    CONSTRAINT wanted_status_columns_match_status CHECK (
        (wanted_status IS NULL AND wanted_quantity IS NULL AND wanted_is_on_back_order IS NULL)
        OR (wanted_status = 'in_stock' AND wanted_quantity IS NOT NULL AND wanted_quantity >= 1 AND wanted_is_on_back_order IS NULL)
        OR (wanted_status = 'out_of_stock' AND wanted_quantity IS NULL AND wanted_is_on_back_order IS NOT NULL AND wanted_is_on_back_order IN (0, 1))
    )
) STRICT;

INSERT INTO new_drafts (id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order,
                        created_at, updated_at, location)
SELECT id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order,
       created_at, updated_at, location
FROM drafts
ORDER BY id;

DROP TABLE drafts;
ALTER TABLE new_drafts RENAME TO drafts;

-- `stockroom draft list` shows drafts oldest first.
CREATE INDEX drafts_by_created ON drafts (created_at, id);
-- A draft of a new item drafts an id no other such draft has (the UNIQUE of 0002); the
-- conflicts about one item are as many as the intents that caused them.
CREATE UNIQUE INDEX drafts_new_item_once ON drafts (item_id) WHERE kind IN ('adding', 'duplicating');
