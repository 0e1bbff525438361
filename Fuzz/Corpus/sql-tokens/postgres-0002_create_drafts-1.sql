
-- `stockroom draft list` shows drafts oldest first.
CREATE INDEX drafts_by_created ON drafts (created_at, id);