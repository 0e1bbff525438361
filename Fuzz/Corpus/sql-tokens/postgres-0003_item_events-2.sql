
-- Append-only: history is never rewritten. The message is SQLite's RAISE(ABORT, …) word for
-- word; SQLSTATE 23001 (restrict_violation) files the refusal with the constraints, as
-- SQLite files its trigger refusals.
CREATE FUNCTION item_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION 'item_events is append-only: history cannot be changed' USING ERRCODE = 'restrict_violation';