-- The trigram positions of a name from a fixed table instead of a recursive query. Issue 37,
-- "Import pays a recursive query per row"; the PostgreSQL twin is a no-op (pg_trgm's trigrams
-- are the server's own, and the two engines keep the same migration versions and names).
--
-- WHY. 0007's triggers listed the positions of a name's trigrams with `WITH RECURSIVE`, which
-- SQLite runs through an ephemeral table (its queue) opened, filled, read and cleared for
-- every row written: 8.9% of an import's instructions, 17% of bare inserts in the sqlite3
-- shell (BENCHMARKS.md, "Import: the trigram positions"). A table of the numbers 1..256 gives
-- the same positions by a range of its rowids, with no table made per row.
--
-- EVERY NAME IS COVERED. Names have no length limit. The table covers the trigrams starting at
-- positions 1..256 (names up to 258 characters); a longer name's trigrams past position 256
-- come from the recursive query as before, in a trigger of its own whose WHEN is false for
-- every shorter name, so only such a name pays for it.
--
-- THE TABLE IS CONSTANT: written once here, never by a write; `check` and `copy` leave it as
-- it is.

CREATE TABLE items_search_positions (position INTEGER PRIMARY KEY);

INSERT INTO items_search_positions (position)
WITH RECURSIVE numbers(position) AS (SELECT 1 UNION ALL SELECT position + 1 FROM numbers WHERE position < 256)
SELECT position FROM numbers;

DROP TRIGGER items_search_ranges_after_insert;
DROP TRIGGER items_search_ranges_after_update;

CREATE TRIGGER items_search_ranges_after_insert AFTER INSERT ON items
WHEN length(new.name) >= 3 BEGIN
    INSERT INTO items_search_ranges (trigram, head, first_start, last_start)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2), substr(new.name, 1, 8), substr(new.name, 1, 8)
    FROM items_search_positions WHERE position <= length(new.name) - 2
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_start = min(first_start, excluded.first_start), last_start = max(last_start, excluded.last_start)
        WHERE excluded.first_start < first_start OR excluded.last_start > last_start;
END;

CREATE TRIGGER items_search_ranges_after_insert_long AFTER INSERT ON items
WHEN length(new.name) > 258 BEGIN
    INSERT INTO items_search_ranges (trigram, head, first_start, last_start)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2), substr(new.name, 1, 8), substr(new.name, 1, 8)
    FROM (WITH RECURSIVE positions(position) AS (
              SELECT 257 UNION ALL SELECT position + 1 FROM positions WHERE position + 3 <= length(new.name))
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
    FROM items_search_positions WHERE position <= length(new.name) - 2
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_start = min(first_start, excluded.first_start), last_start = max(last_start, excluded.last_start)
        WHERE excluded.first_start < first_start OR excluded.last_start > last_start;
END;

CREATE TRIGGER items_search_ranges_after_update_long AFTER UPDATE OF name ON items
WHEN length(new.name) > 258 AND old.name IS NOT new.name BEGIN
    INSERT INTO items_search_ranges (trigram, head, first_start, last_start)
    SELECT lower(substr(new.name, position, 3)), substr(new.name, 1, 2), substr(new.name, 1, 8), substr(new.name, 1, 8)
    FROM (WITH RECURSIVE positions(position) AS (
              SELECT 257 UNION ALL SELECT position + 1 FROM positions WHERE position + 3 <= length(new.name))
          SELECT position FROM positions)
    WHERE true
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_start = min(first_start, excluded.first_start), last_start = max(last_start, excluded.last_start)
        WHERE excluded.first_start < first_start OR excluded.last_start > last_start;
END;
