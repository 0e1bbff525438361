-- Stockroom's inventory on PostgreSQL: one row per item. The same table as
-- Migrations/sqlite/0001_create_items.sql, column for column and rule for rule, in
-- PostgreSQL's dialect; the same Swift codecs read and write both.
--
-- An item's status is a Swift enum with associated values, stored as TAGGED COLUMNS:
-- `status` names the case and each associated value has a column of its own that is
-- filled for its case and NULL for every other case. CHECK constraints make every
-- other combination impossible to write, from Stockroom or by hand in psql.
--
--   Status.inStock(quantity:)           status = 'in_stock',     quantity >= 1,   is_on_back_order NULL
--   Status.outOfStock(isOnBackOrder:)   status = 'out_of_stock', quantity NULL,   is_on_back_order 0 or 1
--
-- WHY text + CHECK AND NOT CREATE TYPE ... AS ENUM: a native enum type cannot lose a value
-- (ALTER TYPE ... DROP VALUE does not exist), cannot gain one inside the transaction that
-- then uses it on older servers, and a renamed case means rebuilding every column of the
-- type. A CHECK is dropped and re-added in one migration like any constraint, reads the
-- same in both engines, and the tag texts stay those of the Swift codecs.
--
-- WHY COLLATE "C": ids and names are ordered and range-scanned byte by byte, as in SQLite
-- (`items list` orders by name then id; an id prefix is a range on the key). A database
-- created with a language locale would otherwise sort names differently on the server.
-- 0/1 integers rather than boolean for is_on_back_order: both engines then store, print and
-- export the same values.

CREATE TABLE items (
    -- Lowercase canonical UUID text. Stockroom generates time-ordered UUIDv7 ids
    -- (RFC 9562) so new rows land at the end of the primary-key index.
    id text COLLATE "C" NOT NULL PRIMARY KEY
        CHECK (id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),

    -- Never empty or only whitespace (spaces, tabs, line breaks).
    name text COLLATE "C" NOT NULL
        CHECK (length(btrim(name, ' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13))) > 0),

    -- Optional: NULL means "no colour"; otherwise one of the six known colours.
    color text COLLATE "C" NULL
        CHECK (color IN ('black', 'blue', 'green', 'red', 'white', 'yellow')),

    -- The tag of Status: which case this row holds.
    status text COLLATE "C" NOT NULL
        CHECK (status IN ('in_stock', 'out_of_stock')),
    -- Status.inStock(quantity:): how many are in stock, at least 1. NULL for other cases.
    quantity bigint NULL,
    -- Status.outOfStock(isOnBackOrder:): 1 when on back order, else 0. NULL for other cases.
    is_on_back_order smallint NULL,

    -- ISO-8601 UTC timestamps, e.g. 2026-11-22T15:04:05.123Z.
    created_at text COLLATE "C" NOT NULL
        CHECK (created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'),
    updated_at text COLLATE "C" NOT NULL
        CHECK (updated_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'),

    -- The tagging rule: each status case owns exactly its own columns. Every test is
    -- spelled with IS NOT NULL because a CHECK whose expression is NULL passes.
    CONSTRAINT status_columns_match_status CHECK (
        (status = 'in_stock' AND quantity IS NOT NULL AND quantity >= 1 AND is_on_back_order IS NULL)
        OR
        (status = 'out_of_stock' AND quantity IS NULL AND is_on_back_order IS NOT NULL AND is_on_back_order IN (0, 1))
    )
);