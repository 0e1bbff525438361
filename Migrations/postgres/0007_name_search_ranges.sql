-- Where a search's matches can lie: for every trigram of every name and the name's first two
-- characters (its "head"), the least and the greatest start (first eight characters) of the
-- names of that head holding the trigram. The PostgreSQL twin of
-- Migrations/sqlite/0007_name_search_ranges.sql, whose comments explain the table (why, starts
-- rather than whole names, the rule, ranges that only widen, no CHECK constraints, size).
-- Issue 21, W11, third round.
--
-- WHY HERE TOO. 0005's pg_trgm index left the choice to the planner, which is right for rare
-- terms and slow for common ones: for `items list --search keyboard --limit 20` it either
-- fetched and sorted every one of 62,000 candidates, or walked items_by_name from the first
-- name; and pg_trgm skips punctuation, so "Lamp-" had every "Lamp" as a candidate. With this
-- table a common term's walk starts at its first possible name in each head, and a term one of
-- whose trigrams (punctuation included) no name of a head holds skips that head without
-- reading it (ItemSearch.swift).
--
-- FOLDING. `name` is COLLATE "C", so lower() folds ASCII letters only, exactly as the search's
-- ILIKE does on that column; both sides of every comparison are folded by it.
--
-- KEPT BY STATEMENT TRIGGERS over the statement's new rows (transition tables): one pass per
-- statement, so a COPY or INSERT ... SELECT of a million items widens each range once instead
-- of once per row. Only pairs whose range must widen are written: a pair already covering the
-- name is neither updated nor locked (a lock would write the row too). Writers of items
-- already take their turn one at a time (0004's history turn, a statement trigger that runs
-- before any row is written), so two writers never widen the same range at once. Like 0004's
-- functions, these find their table through the writing session's search_path (a function
-- pinned to a schema by name would differ from schema to schema, and `migrate verify` compares
-- each schema with one description).

CREATE TABLE items_search_ranges (
    trigram text COLLATE "C" NOT NULL,
    head text COLLATE "C" NOT NULL,
    first_start text COLLATE "C" NOT NULL,
    last_start text COLLATE "C" NOT NULL,
    PRIMARY KEY (trigram, head)
);

-- Widens the ranges to cover the names a statement inserted (`written`). A range already
-- covering a name is left alone, found through the primary key for each pair: a scalar
-- subquery rather than NOT EXISTS, which the planner turns into a hash join reading the whole
-- table for one row's twenty pairs (1.4 ms an insert instead of 0.05).
CREATE FUNCTION items_search_ranges_cover_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO items_search_ranges AS ranges (trigram, head, first_start, last_start)
    SELECT wanted.trigram, wanted.head, wanted.first_start, wanted.last_start
    FROM (SELECT lower(substr(name, position, 3)) AS trigram, left(name, 2) AS head,
                 min(left(name, 8)) AS first_start, max(left(name, 8)) AS last_start
          FROM written CROSS JOIN LATERAL generate_series(1, length(name) - 2) AS position
          GROUP BY 1, 2) AS wanted
    WHERE (SELECT held.first_start <= wanted.first_start AND held.last_start >= wanted.last_start
           FROM items_search_ranges AS held
           WHERE held.trigram = wanted.trigram AND held.head = wanted.head) IS NOT TRUE
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_start = least(ranges.first_start, excluded.first_start),
            last_start = greatest(ranges.last_start, excluded.last_start);
    RETURN NULL;
END;
$$;

-- The same for an update, over only the names it brought in: a name the table held before
-- the statement is covered already (a million new quantities widen nothing and read no pair).
-- (A trigger reading transition tables cannot be limited to `UPDATE OF name`.)
CREATE FUNCTION items_search_ranges_cover_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO items_search_ranges AS ranges (trigram, head, first_start, last_start)
    SELECT wanted.trigram, wanted.head, wanted.first_start, wanted.last_start
    FROM (SELECT lower(substr(name, position, 3)) AS trigram, left(name, 2) AS head,
                 min(left(name, 8)) AS first_start, max(left(name, 8)) AS last_start
          FROM (SELECT name FROM written EXCEPT SELECT name FROM previous) AS brought
          CROSS JOIN LATERAL generate_series(1, length(name) - 2) AS position
          GROUP BY 1, 2) AS wanted
    WHERE (SELECT held.first_start <= wanted.first_start AND held.last_start >= wanted.last_start
           FROM items_search_ranges AS held
           WHERE held.trigram = wanted.trigram AND held.head = wanted.head) IS NOT TRUE
    ON CONFLICT (trigram, head) DO UPDATE
        SET first_start = least(ranges.first_start, excluded.first_start),
            last_start = greatest(ranges.last_start, excluded.last_start);
    RETURN NULL;
END;
$$;

CREATE TRIGGER items_search_ranges_after_insert AFTER INSERT ON items
    REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION items_search_ranges_cover_inserted();

CREATE TRIGGER items_search_ranges_after_update AFTER UPDATE ON items
    REFERENCING OLD TABLE AS previous NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION items_search_ranges_cover_updated();

-- Every range exact, from the names `items` holds: for an existing database here, and after a
-- bulk load that set the triggers aside (ItemsSearchRangesTable.rebuildSQL).
CREATE FUNCTION items_search_ranges_rebuild() RETURNS void LANGUAGE sql AS $$
    DELETE FROM items_search_ranges;
    INSERT INTO items_search_ranges (trigram, head, first_start, last_start)
    SELECT lower(substr(name, position, 3)), left(name, 2), min(left(name, 8)), max(left(name, 8))
    FROM items CROSS JOIN LATERAL generate_series(1, length(name) - 2) AS position
    GROUP BY 1, 2;
$$;

SELECT items_search_ranges_rebuild();
