-- The PostgreSQL twin of Migrations/sqlite/0006_name_search_heads.sql: nothing to add.
--
-- On SQLite that migration adds a table saying which name ranges can hold a search's
-- matches, so that a common term whose names all sort late is found without walking the
-- names before them. On PostgreSQL, `items list --search` is one statement over the pg_trgm
-- GIN index of 0005 and items_by_name, and the planner chooses between them from its own
-- statistics; there is no walk of ours to shorten. The file exists because both engines
-- carry the same migration versions (MigrationSet.embedded).
SELECT 1;
