-- Where a search's matches can lie, to the name: for every trigram of every name and the
-- name's first two characters (its "head"), the first and the last name holding that trigram.
-- Replaces 0006's items_search_heads, which said only which heads hold a trigram. Issue 21,
-- W11, third round; the PostgreSQL twin is Migrations/postgres/0007_name_search_ranges.sql.
--
-- WHY. `items list --search TEXT --limit N` wants the first N matches in name order. 0006 let
-- the walk along `items_by_name` skip the heads that cannot hold TEXT, but within a head it
-- still started at the head's first name: "keyboard" in names like "Bright Keyboard 000123"
-- walked past every "Bright Adapter", "Bright Cable", ... first (27,000 names at 1M items).
-- Every name holding TEXT holds each of TEXT's trigrams, so within a head it sorts at or
-- after the latest of their first names and at or before the earliest of their last names.
-- The walk (ItemSearch.swift) reads only that range of each head: for "keyboard", exactly the
-- "Bright Keyboard ..." names. A head missing one of TEXT's trigrams has no range at all, and
-- a term none of whose heads has every trigram matches nothing, known without reading a name.
--
-- lower() IS SQLITE'S OWN. Every writer folds with the built-in lower() (ASCII letters only),
-- as LIKE does: Stockroom and the sqlite3 shell as shipped. A connection that replaced it (an
-- ICU extension loaded by hand) would store other trigrams for non-ASCII letters; `stockroom
-- copy` (or deleting this table's rows and running the INSERT at the end of this file again)
-- rebuilds it.
--
-- THE RULE IS UNCHANGED. A name containing TEXT (ASCII letters in either case, LIKE's rule)
-- holds each of TEXT's trigrams up to ASCII case, and lower() folds ASCII letters only, on
-- both sides. A range may hold names that do not match: every name the walk reads is checked
-- with the LIKE itself.
--
-- RANGES ONLY WIDEN. A write widens the range of each of the name's pairs to cover the name,
-- and nothing narrows one: a deleted or renamed name may leave a range wider than the names
-- still in it need, which only makes a walk read a few names for nothing, never miss one.
-- Narrowing would need every write to look for the next name holding each trigram. A bulk
-- load that sets the triggers aside rebuilds the table (ItemsSearchRangesTable.rebuildSQL),
-- which also makes every range exact again.
--
-- SIZE. Bounded by the distinct two-character starts times the distinct trigrams, never by the
-- number of items: at 1M benchmark items, 20,490 rows.
--
-- NO CHECK CONSTRAINTS, unlike every table a person writes: the table is derived from `items`,
-- and a CHECK is evaluated for each of a name's twenty pairs on every insert, before the
-- conflict that makes most of them no-ops. Two (first <= last, both in the head) cost 12% more
-- instructions for every insert (20,000 inserts in the sqlite3 shell under callgrind: 8.80G
-- against 7.93G), and would not catch the one harmful edit, a range narrowed by hand. Such an
-- edit, or any doubt, is mended by a rebuild (`stockroom copy`, or the INSERT at the end of
-- this file after deleting the rows).
--
-- KEPT BY TRIGGERS, so rows written in the sqlite3 shell are covered too. A name shorter than
-- 3 characters has no trigram (and no TEXT of 3+ characters can match it). A write that leaves
-- every range as it was writes nothing here (the upsert's WHERE).

DROP TRIGGER items_search_heads_after_insert;
DROP TRIGGER items_search_heads_after_update;
DROP TABLE items_search_heads;

CREATE TABLE items_search_ranges (
    trigram TEXT NOT NULL,
    head TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    PRIMARY KEY (trigram, head)
) WITHOUT ROWID;

CREATE TRIGGER items_search_ranges_after_insert AFTER INSERT ON items
WHEN length(new.name) >= 3 BEGIN
    INSERT INTO items_search_ranges (trigram, head, first_name, last_name)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2), new.name, new.name
    FROM (WITH RECURSIVE positions(position) AS (
              SELECT 1 UNION ALL SELECT position + 1 FROM positions WHERE position + 3 <= length(new.name))
          SELECT position FROM positions)
    WHERE true
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_name = min(first_name, excluded.first_name), last_name = max(last_name, excluded.last_name)
        WHERE excluded.first_name < first_name OR excluded.last_name > last_name;
END;

CREATE TRIGGER items_search_ranges_after_update AFTER UPDATE OF name ON items
WHEN length(new.name) >= 3 AND old.name IS NOT new.name BEGIN
    INSERT INTO items_search_ranges (trigram, head, first_name, last_name)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2), new.name, new.name
    FROM (WITH RECURSIVE positions(position) AS (
              SELECT 1 UNION ALL SELECT position + 1 FROM positions WHERE position + 3 <= length(new.name))
          SELECT position FROM positions)
    WHERE true
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_name = min(first_name, excluded.first_name), last_name = max(last_name, excluded.last_name)
        WHERE excluded.first_name < first_name OR excluded.last_name > last_name;
END;

-- An existing database: the ranges of the names it already has.
INSERT INTO items_search_ranges (trigram, head, first_name, last_name)
WITH RECURSIVE positions(position) AS (
    SELECT 1 UNION ALL SELECT position + 1 FROM positions
    WHERE position + 3 <= (SELECT coalesce(max(length(name)), 0) FROM items))
SELECT lower(substr(name, position, 3)), substr(name, 1, 2), min(name), max(name)
FROM items JOIN positions ON position + 2 <= length(name)
GROUP BY 1, 2;
