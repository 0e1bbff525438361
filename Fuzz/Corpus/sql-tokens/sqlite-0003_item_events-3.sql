
-- Append-only: history is never rewritten.
CREATE TRIGGER item_events_are_never_updated
BEFORE UPDATE ON item_events
BEGIN
    SELECT RAISE(ABORT, 'item_events is append-only: history cannot be changed');