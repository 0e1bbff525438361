-- Whoever appends history (Stockroom, psql, any client) tells the listeners: every statement
-- that inserts into item_events sends a notification on the channel `stockroom_item_events`,
-- which followers (`stockroom events --follow`, the web server's event stream, the library's
-- observations) LISTEN on. PostgreSQL delivers it when the transaction commits, and not at all
-- when it rolls back, so a notification always means "a commit added events": the listener
-- then reads the positions after the last one it has (the notification carries nothing; an
-- empty payload lets the server fold a transaction's many notifications into one).
-- A statement trigger, not a row trigger: a COPY or a set-based INSERT of a million events
-- notifies once.
CREATE FUNCTION item_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('stockroom_item_events', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER item_events_tell_listeners
AFTER INSERT ON item_events
FOR EACH STATEMENT EXECUTE FUNCTION item_events_notify();
