-- Which name ranges can hold a search's matches: for every trigram of every name, the name's
-- first two characters (its "head"). Issue 21, W11, second round.
--
-- WHY. `items list --search TEXT --limit N` wants the first N matches in name order. The
-- trigram index of 0005 (`items_search`) finds them by rowid, in no useful order; when a term
-- is common (thousands of names) the first N are found by walking `items_by_name` from the
-- start. When those names all sort late ("Sturdy ..." after 75% of the names), that walk
-- reads most of the table, and sorting the candidates costs a row lookup each. This table
-- says which heads have a name holding every trigram of TEXT; every other head's names
-- cannot match, so the walk visits only the ranges of the heads it lists (ItemSearch.swift).
--
-- lower() IS SQLITE'S OWN. Every writer folds with the built-in lower() (ASCII letters only),
-- as LIKE does: Stockroom and the sqlite3 shell as shipped. A connection that replaced it (an
-- ICU extension loaded by hand) would store other trigrams for non-ASCII letters; `stockroom
-- copy` (or deleting this table's rows and running the INSERT at the end of this file again)
-- rebuilds it.
--
-- THE RULE IS UNCHANGED. A name containing TEXT (ASCII letters in either case, LIKE's rule)
-- holds each of TEXT's trigrams up to ASCII case; lower() folds ASCII letters only, on both
-- sides, so the pair (lower(trigram), head) exists for each. A head missing a pair for one of
-- TEXT's trigrams therefore has no match; a head listed may still have none: every name the
-- walk reads is checked with the LIKE itself.
--
-- PAIRS ARE ADDED, NEVER REMOVED. A deleted or renamed name may leave pairs that no name
-- needs any more: they only make a walk visit a range for nothing, never miss a match.
-- Counting names per pair to remove them would cost every write 20 upserts instead of 20
-- look-ups that mostly find the pair there. A bulk load that sets the triggers aside
-- rebuilds the table (ItemsSearchHeadsTable.rebuildSQL), which also drops stale pairs.
--
-- SIZE. Two characters keep the number of heads small whatever the names: at 1M Dataset
-- items the table holds 20,490 pairs (16 heads), 233 KB; it is bounded by the distinct
-- two-character starts times the distinct trigrams, never by the number of items.
--
-- KEPT BY TRIGGERS, so rows written in the sqlite3 shell are covered too. A name shorter than
-- 3 characters has no trigram (and no TEXT of 3+ characters can match it).

CREATE TABLE items_search_heads (
    trigram TEXT NOT NULL,
    head TEXT NOT NULL,
    PRIMARY KEY (trigram, head)
) WITHOUT ROWID;

CREATE TRIGGER items_search_heads_after_insert AFTER INSERT ON items
WHEN length(new.name) >= 3 BEGIN
    INSERT OR IGNORE INTO items_search_heads (trigram, head)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2)
    FROM (WITH RECURSIVE positions(position) AS (
              SELECT 1 UNION ALL SELECT position + 1 FROM positions WHERE position + 3 <= length(new.name))
          SELECT position FROM positions);
END;

CREATE TRIGGER items_search_heads_after_update AFTER UPDATE OF name ON items
WHEN length(new.name) >= 3 AND old.name IS NOT new.name BEGIN
    INSERT OR IGNORE INTO items_search_heads (trigram, head)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2)
    FROM (WITH RECURSIVE positions(position) AS (
              SELECT 1 UNION ALL SELECT position + 1 FROM positions WHERE position + 3 <= length(new.name))
          SELECT position FROM positions);
END;

-- An existing database: the pairs of the names it already has.
INSERT OR IGNORE INTO items_search_heads (trigram, head)
WITH RECURSIVE positions(position) AS (
    SELECT 1 UNION ALL SELECT position + 1 FROM positions
    WHERE position + 3 <= (SELECT coalesce(max(length(name)), 0) FROM items))
SELECT lower(substr(name, position, 3)), substr(name, 1, 2)
FROM items JOIN positions ON position + 2 <= length(name);
