-- `items list --search TEXT` without reading every row: a trigram index over item names.
--
-- The rule stays what it was: a name matches when it contains TEXT, ignoring the letter case
-- of ASCII letters only (SQLite's LIKE). The index only narrows the rows to look at; every
-- candidate is checked with that same LIKE, so the index's own case folding (Unicode-wide)
-- can add candidates but never change a result (ItemSearchPlan.swift).
--
-- FTS5's `trigram` tokenizer indexes every run of three characters, so any TEXT of 3 or more
-- characters is found through its trigrams; shorter TEXT is matched by LIKE alone.
--
-- EXTERNAL CONTENT (content='items'): the index holds no copy of the names; it reads them
-- from `items` by rowid when asked. `items` has a TEXT primary key, so its rowid is SQLite's
-- own; VACUUM and VACUUM INTO keep rowids (checked on 3.40 with FTS5's integrity-check), the
-- backup API copies pages, and restore copies the file.
-- detail='none': no positions (a candidate has every trigram of TEXT, then LIKE decides): the
-- index is 19 MB at 1M items, 3.8% of the file. columnsize=0: no per-row sizes (no ranking).
--
-- KEPT BY TRIGGERS, so rows written by hand in the sqlite3 shell are found too. The UPDATE
-- trigger fires when the name or the rowid changes; an FTS5 'delete' must be given the old
-- name exactly as indexed, which OLD holds.

CREATE VIRTUAL TABLE items_search USING fts5(
    name,
    content = 'items',
    content_rowid = 'rowid',
    tokenize = 'trigram',
    detail = 'none',
    columnsize = 0
);

CREATE TRIGGER items_search_after_insert AFTER INSERT ON items BEGIN
    INSERT INTO items_search (rowid, name) VALUES (new.rowid, new.name);
END;

CREATE TRIGGER items_search_after_delete AFTER DELETE ON items BEGIN
    INSERT INTO items_search (items_search, rowid, name) VALUES ('delete', old.rowid, old.name);
END;

CREATE TRIGGER items_search_after_update AFTER UPDATE ON items
WHEN old.name IS NOT new.name OR old.rowid IS NOT new.rowid BEGIN
    INSERT INTO items_search (items_search, rowid, name) VALUES ('delete', old.rowid, old.name);
    INSERT INTO items_search (rowid, name) VALUES (new.rowid, new.name);
END;

-- An existing database: index the items it already has.
INSERT INTO items_search (items_search) VALUES ('rebuild');
