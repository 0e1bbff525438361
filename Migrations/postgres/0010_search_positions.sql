-- Nothing to do on PostgreSQL. SQLite's 0010 replaces the recursive query its search-range
-- triggers ran for every row with a fixed table of positions (Migrations/sqlite/
-- 0010_search_positions.sql); PostgreSQL's triggers take a name's trigrams from pg_trgm's own
-- functions and need no such table. The file keeps the engines' migrations at the same
-- versions and names (EmbeddedMigrationsTests).
SELECT 1;
