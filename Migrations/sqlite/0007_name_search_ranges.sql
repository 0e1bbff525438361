-- Where a search's matches can lie: for every trigram of every name and the name's first two
-- characters (its "head"), the least and the greatest start (first eight characters) of the
-- names of that head holding the trigram. Replaces 0006's items_search_heads, which said only
-- which heads hold a trigram. Issue 21, W11, third round; the PostgreSQL twin is
-- Migrations/postgres/0007_name_search_ranges.sql.
--
-- WHY. `items list --search TEXT --limit N` wants the first N matches in name order. 0006 let
-- the walk along `items_by_name` skip the heads that cannot hold TEXT, but within a head it
-- still started at the head's first name: "keyboard" in names like "Bright Keyboard 000123"
-- walked past every "Bright Adapter", "Bright Cable", ... first (27,000 names at 1M items).
-- A name holding TEXT holds each of TEXT's trigrams, so within a head its start lies between
-- the latest of their least starts and the earliest of their greatest starts; the name itself
-- then lies from that least start up to (not including) the first text past every name
-- beginning with that greatest start. The walk (ItemSearch.swift) reads only that range of
-- each head: for "keyboard", the "Bright Keyboard ..." names. A head missing one of TEXT's
-- trigrams has no range at all, and a term none of whose heads holds every trigram matches
-- nothing, known without reading a name.
--
-- STARTS, NOT WHOLE NAMES. With whole names as bounds, names added in ascending order ("Widget
-- 0001", "Widget 0002", ...) would move the greatest bound of every one of their trigrams on
-- every insert: twenty row updates per item (measured on PostgreSQL: inserts 2.3x slower).
-- Eight characters bound the range about as tightly (a range spans the names sharing a start)
-- and leave the table alone while names only differ further in.
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
-- NO CHECK CONSTRAINTS, unlike every table a person writes: the table is derived from `items`,
-- and a CHECK is evaluated for each of a name's twenty pairs on every insert, before the
-- conflict that makes most of them no-ops. Two (first <= last, both in the head) cost 11% more
-- instructions for every insert (20,000 inserts in the sqlite3 shell under callgrind: 8.80G
-- against 7.93G), and would not catch the one harmful edit, a range narrowed by hand. Such an
-- edit, or any doubt, is mended by a rebuild (`stockroom copy`, or the INSERT at the end of
-- this file after deleting the rows).
--
-- SIZE. At most the distinct two-character starts times the distinct trigrams, and at most the
-- trigrams of all names: at 1M benchmark items, 20,490 rows, 1.1 MB.
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
    first_start TEXT NOT NULL,
    last_start TEXT NOT NULL,
    PRIMARY KEY (trigram, head)
) WITHOUT ROWID;

CREATE TRIGGER items_search_ranges_after_insert AFTER INSERT ON items
WHEN length(new.name) >= 3 BEGIN
    INSERT INTO items_search_ranges (trigram, head, first_start, last_start)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2), substr(new.name, 1, 8), substr(new.name, 1, 8)
    FROM (WITH RECURSIVE positions(position) AS (
              SELECT 1 UNION ALL SELECT position + 1 FROM positions WHERE position + 3 <= length(new.name))
          SELECT position FROM positions)
    WHERE true
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_start = min(first_start, excluded.first_start), last_start = max(last_start, excluded.last_start)
        WHERE excluded.first_start < first_start OR excluded.last_start > last_start;
END;

CREATE TRIGGER items_search_ranges_after_update AFTER UPDATE OF name ON items
WHEN length(new.name) >= 3 AND old.name IS NOT new.name BEGIN
    INSERT INTO items_search_ranges (trigram, head, first_start, last_start)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2), substr(new.name, 1, 8), substr(new.name, 1, 8)
    FROM (WITH RECURSIVE positions(position) AS (
              SELECT 1 UNION ALL SELECT position + 1 FROM positions WHERE position + 3 <= length(new.name))
          SELECT position FROM positions)
    WHERE true
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_start = min(first_start, excluded.first_start), last_start = max(last_start, excluded.last_start)
        WHERE excluded.first_start < first_start OR excluded.last_start > last_start;
END;

-- An existing database: the ranges of the names it already has.
INSERT INTO items_search_ranges (trigram, head, first_start, last_start)
WITH RECURSIVE positions(position) AS (
    SELECT 1 UNION ALL SELECT position + 1 FROM positions
    WHERE position + 3 <= (SELECT coalesce(max(length(name)), 0) FROM items))
SELECT lower(substr(name, position, 3)), substr(name, 1, 2), min(substr(name, 1, 8)), max(substr(name, 1, 8))
FROM items JOIN positions ON position + 2 <= length(name)
GROUP BY 1, 2;
