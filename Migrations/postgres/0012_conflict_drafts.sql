-- A conflict is a draft: Draft.resolving(Item, conflict: OpenConflict), for a person to resolve.
-- Issue 35; the SQLite twin (with the full explanation) is Migrations/sqlite/0012_conflict_drafts.sql.
--
--   Draft.resolving(Item)   kind = 'resolving', source_item_id NULL, the conflict_* columns set,
--                           shown_* set, wanted_* set or (for a wanted delete) all NULL
--
-- The draft's id is the conflict's. An item may have several open conflicts, one draft each,
-- so the UNIQUE on item_id becomes a partial unique index over 'adding' and 'duplicating'.
-- The other kinds leave every new column NULL, so existing drafts stay valid as they are and
-- the table is altered in place (one scan to validate the new CHECKs), not rebuilt.

ALTER TABLE drafts DROP CONSTRAINT drafts_kind_check;
ALTER TABLE drafts ADD CONSTRAINT drafts_kind_check CHECK (kind IN ('adding', 'duplicating', 'resolving'));

ALTER TABLE drafts DROP CONSTRAINT source_matches_kind;
ALTER TABLE drafts ADD CONSTRAINT source_matches_kind CHECK (
    (kind = 'adding' AND source_item_id IS NULL)
    OR
    (kind = 'duplicating' AND source_item_id IS NOT NULL)
    OR
    (kind = 'resolving' AND source_item_id IS NULL)
);

-- Draft.resolving: why (ConflictReason.Case's raw values), the replica it came from, when the
-- change was made there by its clock (shown, never compared), whether shown_* is the hub's
-- item (1) or the replica's last copy of an item the hub deleted (0), the adjustment
-- ('oversold', 'quantity_overflow') and the units missing ('oversold'); then the item shown
-- and the item wanted (all NULL for a wanted delete), every field but the id (item_id).
ALTER TABLE drafts
    ADD COLUMN conflict_reason text COLLATE "C" NULL
        CHECK (conflict_reason IN ('overtaken', 'oversold', 'quantity_overflow', 'changed_before_delete', 'deleted_before_change', 'resolved_meanwhile')),
    ADD COLUMN conflict_origin text COLLATE "C" NULL
        CHECK (conflict_origin IS NULL OR conflict_origin ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    ADD COLUMN conflict_made_at text COLLATE "C" NULL
        CHECK (conflict_made_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'),
    ADD COLUMN conflict_hub_holds_item smallint NULL
        CHECK (conflict_hub_holds_item IN (0, 1)),
    ADD COLUMN conflict_adjustment bigint NULL,
    ADD COLUMN conflict_missing bigint NULL
        CHECK (conflict_missing >= 1),
    ADD COLUMN shown_name text COLLATE "C" NULL,
    ADD COLUMN shown_color text COLLATE "C" NULL
        CHECK (shown_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    ADD COLUMN shown_status text COLLATE "C" NULL
        CHECK (shown_status IN ('in_stock', 'out_of_stock')),
    ADD COLUMN shown_quantity bigint NULL,
    ADD COLUMN shown_is_on_back_order smallint NULL,
    ADD COLUMN shown_location text COLLATE "C" NULL
        CHECK (shown_location IS NULL OR (char_length(shown_location) >= 1 AND octet_length(shown_location) <= 800 AND shown_location = btrim(shown_location, ' ') AND shown_location !~ '[\x01-\x1f\x7f]')),
    ADD COLUMN wanted_name text COLLATE "C" NULL,
    ADD COLUMN wanted_color text COLLATE "C" NULL
        CHECK (wanted_color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),
    ADD COLUMN wanted_status text COLLATE "C" NULL
        CHECK (wanted_status IN ('in_stock', 'out_of_stock')),
    ADD COLUMN wanted_quantity bigint NULL,
    ADD COLUMN wanted_is_on_back_order smallint NULL,
    ADD COLUMN wanted_location text COLLATE "C" NULL
        CHECK (wanted_location IS NULL OR (char_length(wanted_location) >= 1 AND octet_length(wanted_location) <= 800 AND wanted_location = btrim(wanted_location, ' ') AND wanted_location !~ '[\x01-\x1f\x7f]'));

-- Exactly a conflict's draft has a conflict: its reason, origin, time, flag and item shown
-- all set; every other kind none of the conflict's columns.
ALTER TABLE drafts ADD CONSTRAINT conflict_matches_kind CHECK (
    (kind = 'resolving'
        AND conflict_reason IS NOT NULL AND conflict_origin IS NOT NULL AND conflict_made_at IS NOT NULL
        AND conflict_hub_holds_item IS NOT NULL AND shown_name IS NOT NULL AND shown_status IS NOT NULL)
    OR
    (kind <> 'resolving'
        AND conflict_reason IS NULL AND conflict_origin IS NULL AND conflict_made_at IS NULL
        AND conflict_hub_holds_item IS NULL AND conflict_adjustment IS NULL AND conflict_missing IS NULL
        AND shown_name IS NULL AND shown_color IS NULL AND shown_status IS NULL AND shown_location IS NULL
        AND wanted_name IS NULL AND wanted_color IS NULL AND wanted_status IS NULL AND wanted_location IS NULL)
);
-- Each reason has exactly its own numbers (coalesce: a NULL reason must not make the test NULL).
ALTER TABLE drafts ADD CONSTRAINT conflict_numbers_match_reason CHECK (
    (conflict_adjustment IS NOT NULL) = (coalesce(conflict_reason, '') IN ('oversold', 'quantity_overflow'))
    AND (conflict_missing IS NOT NULL) = (coalesce(conflict_reason, '') = 'oversold')
);
-- The wanted item is whole, or entirely NULL (a wanted delete).
ALTER TABLE drafts ADD CONSTRAINT wanted_is_whole_or_none CHECK (
    (wanted_name IS NULL AND wanted_color IS NULL AND wanted_status IS NULL AND wanted_location IS NULL)
    OR (wanted_name IS NOT NULL AND wanted_status IS NOT NULL)
);
-- The tagging rule of items.status for the item shown and the item wanted, each a valid
-- Status or all NULL.
ALTER TABLE drafts ADD CONSTRAINT shown_status_columns_match_status CHECK (
    (shown_status IS NULL AND shown_quantity IS NULL AND shown_is_on_back_order IS NULL)
    OR (shown_status = 'in_stock' AND shown_quantity IS NOT NULL AND shown_quantity >= 1 AND shown_is_on_back_order IS NULL)
    OR (shown_status = 'out_of_stock' AND shown_quantity IS NULL AND shown_is_on_back_order IS NOT NULL AND shown_is_on_back_order IN (0, 1))
);
ALTER TABLE drafts ADD CONSTRAINT wanted_status_columns_match_status CHECK (
    (wanted_status IS NULL AND wanted_quantity IS NULL AND wanted_is_on_back_order IS NULL)
    OR (wanted_status = 'in_stock' AND wanted_quantity IS NOT NULL AND wanted_quantity >= 1 AND wanted_is_on_back_order IS NULL)
    OR (wanted_status = 'out_of_stock' AND wanted_quantity IS NULL AND wanted_is_on_back_order IS NOT NULL AND wanted_is_on_back_order IN (0, 1))
);

-- A draft of a new item drafts an id no other such draft has (the UNIQUE of 0002); the
-- conflicts about one item are as many as the intents that caused them.
ALTER TABLE drafts DROP CONSTRAINT drafts_item_id_key;
CREATE UNIQUE INDEX drafts_new_item_once ON drafts (item_id) WHERE kind IN ('adding', 'duplicating');
