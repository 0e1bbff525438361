-- The database keeps the history itself on PostgreSQL, whoever writes `items`: Stockroom, psql
-- or any other client. The same rules as Migrations/sqlite/0004_history_triggers.sql, whose
-- comments explain them (events appended by triggers in the change's transaction; 'changed'
-- only for name, colour or status and with only their pairs; times never going back; an id
-- never changed nor reused; a hand-written event must follow on; a gapless `position` in commit
-- order), in PostgreSQL's dialect. The differences:
--
-- - A hand-written event may leave `position` out (NULL): the guard fills it in, as it does for
--   the events of the items triggers. One given must be the next one.
-- - Times: 'changed' and 'deleted' are dated with now(), the start of the change's transaction,
--   and never earlier than the item's previous event.
--
-- POSITION IN COMMIT ORDER. Several transactions write at once on a server, so max(position) + 1
-- alone would hand the same number to two of them, or let a later number commit before an
-- earlier one (a reader resuming "after N" would then miss the earlier one for good). Every
-- append therefore first takes one transaction-scoped advisory lock,
-- pg_advisory_xact_lock(1398033234, 4) (the two-key form, apart from the one-number keys such as
-- Stockroom's migration lock; 1398033234 is 'STKR' in ASCII, 4 this migration), and holds it
-- until COMMIT or ROLLBACK: appends are serialized, each one reads max(position) after the
-- previous appender committed (READ COMMITTED takes a new snapshot per statement), so
-- positions are given in commit order, and a rolled-back writer's numbers are given again:
-- no gaps. The lock is taken by a statement trigger on `items` before any row is touched, so
-- a writer waiting for it holds no row of `items` that the lock's holder could need.
-- A REPEATABLE READ or SERIALIZABLE writer that had to wait would read a stale max(position);
-- it fails with serialization_failure (40001), which clients retry, rather than a duplicate.
-- Writers of items are therefore one at a time, as on SQLite; readers never wait.

-- position: see above. Numbered for the existing events as on SQLite.
ALTER TABLE item_events ADD COLUMN position bigint NULL CHECK (position >= 1);

ALTER TABLE item_events DISABLE TRIGGER item_events_are_never_updated;
UPDATE item_events SET position = numbered.position
FROM (
    SELECT item_id, version,
           row_number() OVER (ORDER BY happened, item_id, version) AS position
    FROM (SELECT item_id, version,
                 max(recorded_at) OVER (PARTITION BY item_id ORDER BY version) AS happened
          FROM item_events) AS timed
) AS numbered
WHERE item_events.item_id = numbered.item_id AND item_events.version = numbered.version;
ALTER TABLE item_events ENABLE TRIGGER item_events_are_never_updated;

ALTER TABLE item_events ALTER COLUMN position SET NOT NULL;
CREATE UNIQUE INDEX item_events_by_position ON item_events (position);

-- Waits for the turn to append events (see above); a writer that already has it gets it at once.
CREATE FUNCTION item_events_take_turn() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF pg_try_advisory_xact_lock(1398033234, 4) THEN
        RETURN;
    END IF;
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM pg_advisory_xact_lock(1398033234, 4);
        RAISE EXCEPTION 'item_events: another transaction appended history first; retry this one'
            USING ERRCODE = 'serialization_failure';
    END IF;
    PERFORM pg_advisory_xact_lock(1398033234, 4);
END;
$$;

CREATE FUNCTION items_history_turn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM item_events_take_turn();
    RETURN NULL;
END;
$$;

CREATE TRIGGER items_take_history_turn
BEFORE INSERT OR UPDATE OR DELETE ON items
FOR EACH STATEMENT EXECUTE FUNCTION items_history_turn();

-- The guard: a new event follows on from the item's previous one, and gets the next position.
CREATE FUNCTION item_events_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    next_position bigint;
BEGIN
    PERFORM item_events_take_turn();
    SELECT coalesce(max(position), 0) + 1 INTO next_position FROM item_events;
    IF NEW.position IS NULL THEN
        NEW.position := next_position;
    ELSIF NEW.position <> next_position THEN
        RAISE EXCEPTION 'item_events: position must be the latest position + 1 (SELECT max(position) + 1 FROM item_events)'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.version > 1 AND NOT EXISTS (
        SELECT 1 FROM item_events AS previous
        WHERE previous.item_id = NEW.item_id AND previous.version = NEW.version - 1
          AND previous.kind <> 'deleted' AND previous.recorded_at <= NEW.recorded_at) THEN
        RAISE EXCEPTION 'item_events: version must be the item''s latest version + 1, after an event that is not ''deleted'' and not later than recorded_at'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER item_events_follow_on
BEFORE INSERT ON item_events
FOR EACH ROW EXECUTE FUNCTION item_events_guard();

-- An id never changes.
CREATE FUNCTION items_refuse_id_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'items: an item''s id never changes (its history is kept under it); delete the item and insert a new one instead'
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER items_id_never_changes
BEFORE UPDATE OF id ON items
FOR EACH ROW WHEN (NEW.id IS DISTINCT FROM OLD.id) EXECUTE FUNCTION items_refuse_id_change();

-- INSERT, UPDATE, DELETE: the event, as on SQLite.
CREATE FUNCTION items_record_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    previous_version bigint;
    previous_time text;
    changed_time text;
    status_changed boolean;
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF EXISTS (SELECT 1 FROM item_events WHERE item_id = NEW.id AND version = 1) THEN
            RAISE EXCEPTION 'items: this id belonged to a deleted item, whose history is kept; an id is never reused (insert the item under a new id)'
                USING ERRCODE = 'restrict_violation';
        END IF;
        INSERT INTO item_events (item_id, version, kind, recorded_at,
                                 to_name, to_color, to_status, to_quantity, to_is_on_back_order)
        VALUES (NEW.id, 1, 'added', NEW.updated_at,
                NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order);
        RETURN NULL;
    END IF;

    SELECT version, recorded_at INTO previous_version, previous_time
    FROM item_events WHERE item_id = OLD.id ORDER BY version DESC LIMIT 1;
    -- Compared byte by byte (COLLATE "C"), as the column is: a language collation may skip
    -- punctuation.
    changed_time := greatest(previous_time COLLATE "C",
                             to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') COLLATE "C");

    IF TG_OP = 'DELETE' THEN
        INSERT INTO item_events (item_id, version, kind, recorded_at)
        VALUES (OLD.id, coalesce(previous_version, 0) + 1, 'deleted', changed_time);
        RETURN NULL;
    END IF;

    status_changed := NEW.status IS DISTINCT FROM OLD.status OR NEW.quantity IS DISTINCT FROM OLD.quantity
        OR NEW.is_on_back_order IS DISTINCT FROM OLD.is_on_back_order;
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             from_name, to_name, color_changed, from_color, to_color,
                             from_status, from_quantity, from_is_on_back_order,
                             to_status, to_quantity, to_is_on_back_order)
    VALUES (NEW.id, coalesce(previous_version, 0) + 1, 'changed', changed_time,
            CASE WHEN NEW.name IS DISTINCT FROM OLD.name THEN OLD.name END,
            CASE WHEN NEW.name IS DISTINCT FROM OLD.name THEN NEW.name END,
            CASE WHEN NEW.color IS DISTINCT FROM OLD.color THEN 1 ELSE 0 END,
            CASE WHEN NEW.color IS DISTINCT FROM OLD.color THEN OLD.color END,
            CASE WHEN NEW.color IS DISTINCT FROM OLD.color THEN NEW.color END,
            CASE WHEN status_changed THEN OLD.status END,
            CASE WHEN status_changed THEN OLD.quantity END,
            CASE WHEN status_changed THEN OLD.is_on_back_order END,
            CASE WHEN status_changed THEN NEW.status END,
            CASE WHEN status_changed THEN NEW.quantity END,
            CASE WHEN status_changed THEN NEW.is_on_back_order END);
    RETURN NULL;
END;
$$;

CREATE TRIGGER items_record_added
AFTER INSERT ON items
FOR EACH ROW EXECUTE FUNCTION items_record_history();

CREATE TRIGGER items_record_changes
AFTER UPDATE OF name, color, status, quantity, is_on_back_order ON items
FOR EACH ROW WHEN (NEW.name IS DISTINCT FROM OLD.name OR NEW.color IS DISTINCT FROM OLD.color
                   OR NEW.status IS DISTINCT FROM OLD.status OR NEW.quantity IS DISTINCT FROM OLD.quantity
                   OR NEW.is_on_back_order IS DISTINCT FROM OLD.is_on_back_order)
EXECUTE FUNCTION items_record_history();

CREATE TRIGGER items_record_deletion
AFTER DELETE ON items
FOR EACH ROW EXECUTE FUNCTION items_record_history();

-- TRUNCATE skips row triggers: it would remove items without recording their deletion.
CREATE FUNCTION items_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'items: TRUNCATE would record no deletion in item_events; use DELETE FROM items'
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER items_are_never_truncated
BEFORE TRUNCATE ON items
FOR EACH STATEMENT EXECUTE FUNCTION items_refuse_truncate();
