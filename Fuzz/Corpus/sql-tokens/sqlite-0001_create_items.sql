-- Stockroom's inventory: one row per item.
--
-- An item's status is a Swift enum with associated values, stored as TAGGED COLUMNS:
-- `status` names the case and each associated value has a column of its own that is
-- filled for its case and NULL for every other case. CHECK constraints make every
-- other combination impossible to write, from Stockroom or by hand in the sqlite3 shell.
--
--   Status.inStock(quantity:)           status = 'in_stock',     quantity >= 1,   is_on_back_order NULL
--   Status.outOfStock(isOnBackOrder:)   status = 'out_of_stock', quantity NULL,   is_on_back_order 0 or 1

CREATE TABLE items (
    -- Lowercase canonical UUID text. Stockroom generates time-ordered UUIDv7 ids
    -- (RFC 9562) so new rows land at the end of the primary-key index.
    id TEXT NOT NULL PRIMARY KEY
        CHECK (length(id) = 36 AND id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),

    -- Never empty or only whitespace (spaces, tabs, line breaks).
    name TEXT NOT NULL
        CHECK (length(trim(name, ' ' || char(9, 10, 11, 12, 13))) > 0),

    -- Optional: NULL means "no colour"; otherwise one of the six known colours.
    color TEXT NULL
        CHECK (color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),

    -- The tag of Status: which case this row holds.
    status TEXT NOT NULL
        CHECK (status IN ('in_stock', 'out_of_stock')),
    -- Status.inStock(quantity:): how many are in stock, at least 1. NULL for other cases.
    quantity INTEGER NULL,
    -- Status.outOfStock(isOnBackOrder:): 1 when on back order, else 0. NULL for other cases.
    is_on_back_order INTEGER NULL,

    -- ISO-8601 UTC timestamps, e.g. 2026-11-22T15:04:05.123Z.
    created_at TEXT NOT NULL
        CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    updated_at TEXT NOT NULL
        CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),

    -- The tagging rule: each status case owns exactly its own columns. Every test is
    -- spelled with IS NOT NULL because a CHECK whose expression is NULL passes.
    CONSTRAINT status_columns_match_status CHECK (
        (status = 'in_stock' AND quantity IS NOT NULL AND quantity >= 1 AND is_on_back_order IS NULL)
        OR
        (status = 'out_of_stock' AND quantity IS NULL AND is_on_back_order IS NOT NULL AND is_on_back_order IN (0, 1))
    )
) STRICT;

-- `stockroom items list` orders by name then id, optionally filtered by status and colour;
-- each index below serves one filter combination in that order without a sort step.
CREATE INDEX items_by_name ON items (name, id);
CREATE INDEX items_by_status_name ON items (status, name, id);
CREATE INDEX items_by_color_name ON items (color, name, id);
