-- The schema that Migrations/postgres/ produce, as PostgreSQL's catalog describes it after
-- the last migration (tables rebuilt from their columns and constraints).
-- Generated on a throwaway server (run scripts/update-schema.sh); do not edit.
-- A test fails when this file is stale, so every schema change shows up here in review.

CREATE TABLE drafts (
    id text COLLATE "C" NOT NULL,
    kind text COLLATE "C" NOT NULL,
    source_item_id text COLLATE "C",
    item_id text COLLATE "C" NOT NULL,
    name text COLLATE "C" NOT NULL,
    color text COLLATE "C",
    status text COLLATE "C" NOT NULL,
    quantity bigint,
    is_on_back_order smallint,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL,
    location text,
    conflict_reason text COLLATE "C",
    conflict_origin text COLLATE "C",
    conflict_made_at text COLLATE "C",
    conflict_hub_holds_item smallint,
    conflict_adjustment bigint,
    conflict_missing bigint,
    shown_name text COLLATE "C",
    shown_color text COLLATE "C",
    shown_status text COLLATE "C",
    shown_quantity bigint,
    shown_is_on_back_order smallint,
    shown_location text COLLATE "C",
    wanted_name text COLLATE "C",
    wanted_color text COLLATE "C",
    wanted_status text COLLATE "C",
    wanted_quantity bigint,
    wanted_is_on_back_order smallint,
    wanted_location text COLLATE "C",
    CONSTRAINT conflict_matches_kind CHECK ((((kind = 'resolving'::text) AND (conflict_reason IS NOT NULL) AND (conflict_origin IS NOT NULL) AND (conflict_made_at IS NOT NULL) AND (conflict_hub_holds_item IS NOT NULL) AND (shown_name IS NOT NULL) AND (shown_status IS NOT NULL)) OR ((kind <> 'resolving'::text) AND (conflict_reason IS NULL) AND (conflict_origin IS NULL) AND (conflict_made_at IS NULL) AND (conflict_hub_holds_item IS NULL) AND (conflict_adjustment IS NULL) AND (conflict_missing IS NULL) AND (shown_name IS NULL) AND (shown_color IS NULL) AND (shown_status IS NULL) AND (shown_location IS NULL) AND (wanted_name IS NULL) AND (wanted_color IS NULL) AND (wanted_status IS NULL) AND (wanted_location IS NULL)))),
    CONSTRAINT conflict_numbers_match_reason CHECK ((((conflict_adjustment IS NOT NULL) = (COALESCE(conflict_reason, ''::text) = ANY (ARRAY['oversold'::text, 'quantity_overflow'::text]))) AND ((conflict_missing IS NOT NULL) = (COALESCE(conflict_reason, ''::text) = 'oversold'::text)))),
    CONSTRAINT drafts_color_check CHECK ((color = ANY (ARRAY['black'::text, 'blue'::text, 'green'::text, 'red'::text, 'white'::text, 'yellow'::text]))),
    CONSTRAINT drafts_conflict_hub_holds_item_check CHECK ((conflict_hub_holds_item = ANY (ARRAY[0, 1]))),
    CONSTRAINT drafts_conflict_made_at_check CHECK ((conflict_made_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT drafts_conflict_missing_check CHECK ((conflict_missing >= 1)),
    CONSTRAINT drafts_conflict_origin_check CHECK (((conflict_origin IS NULL) OR (conflict_origin ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))),
    CONSTRAINT drafts_conflict_reason_check CHECK ((conflict_reason = ANY (ARRAY['overtaken'::text, 'oversold'::text, 'quantity_overflow'::text, 'changed_before_delete'::text, 'deleted_before_change'::text, 'resolved_meanwhile'::text]))),
    CONSTRAINT drafts_created_at_check CHECK ((created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT drafts_id_check CHECK ((id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT drafts_item_id_check CHECK ((item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT drafts_kind_check CHECK ((kind = ANY (ARRAY['adding'::text, 'duplicating'::text, 'resolving'::text]))),
    CONSTRAINT drafts_location_check CHECK (((location IS NULL) OR ((char_length(location) >= 1) AND (octet_length(location) <= 800) AND (location = btrim(location, ' '::text)) AND (location !~ '[\x01-\x1f\x7f]'::text)))),
    CONSTRAINT drafts_pkey PRIMARY KEY (id),
    CONSTRAINT drafts_shown_color_check CHECK ((shown_color = ANY (ARRAY['black'::text, 'blue'::text, 'green'::text, 'red'::text, 'white'::text, 'yellow'::text]))),
    CONSTRAINT drafts_shown_location_check CHECK (((shown_location IS NULL) OR ((char_length(shown_location) >= 1) AND (octet_length(shown_location) <= 800) AND (shown_location = btrim(shown_location, ' '::text)) AND (shown_location !~ '[\x01-\x1f\x7f]'::text)))),
    CONSTRAINT drafts_shown_status_check CHECK ((shown_status = ANY (ARRAY['in_stock'::text, 'out_of_stock'::text]))),
    CONSTRAINT drafts_source_item_id_check CHECK (((source_item_id IS NULL) OR (source_item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))),
    CONSTRAINT drafts_status_check CHECK ((status = ANY (ARRAY['in_stock'::text, 'out_of_stock'::text]))),
    CONSTRAINT drafts_updated_at_check CHECK ((updated_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT drafts_wanted_color_check CHECK ((wanted_color = ANY (ARRAY['black'::text, 'blue'::text, 'green'::text, 'red'::text, 'white'::text, 'yellow'::text]))),
    CONSTRAINT drafts_wanted_location_check CHECK (((wanted_location IS NULL) OR ((char_length(wanted_location) >= 1) AND (octet_length(wanted_location) <= 800) AND (wanted_location = btrim(wanted_location, ' '::text)) AND (wanted_location !~ '[\x01-\x1f\x7f]'::text)))),
    CONSTRAINT drafts_wanted_status_check CHECK ((wanted_status = ANY (ARRAY['in_stock'::text, 'out_of_stock'::text]))),
    CONSTRAINT shown_status_columns_match_status CHECK ((((shown_status IS NULL) AND (shown_quantity IS NULL) AND (shown_is_on_back_order IS NULL)) OR ((shown_status = 'in_stock'::text) AND (shown_quantity IS NOT NULL) AND (shown_quantity >= 1) AND (shown_is_on_back_order IS NULL)) OR ((shown_status = 'out_of_stock'::text) AND (shown_quantity IS NULL) AND (shown_is_on_back_order IS NOT NULL) AND (shown_is_on_back_order = ANY (ARRAY[0, 1]))))),
    CONSTRAINT source_matches_kind CHECK ((((kind = 'adding'::text) AND (source_item_id IS NULL)) OR ((kind = 'duplicating'::text) AND (source_item_id IS NOT NULL)) OR ((kind = 'resolving'::text) AND (source_item_id IS NULL)))),
    CONSTRAINT status_columns_match_status CHECK ((((status = 'in_stock'::text) AND (quantity IS NOT NULL) AND (quantity >= 1) AND (is_on_back_order IS NULL)) OR ((status = 'out_of_stock'::text) AND (quantity IS NULL) AND (is_on_back_order IS NOT NULL) AND (is_on_back_order = ANY (ARRAY[0, 1]))))),
    CONSTRAINT wanted_is_whole_or_none CHECK ((((wanted_name IS NULL) AND (wanted_color IS NULL) AND (wanted_status IS NULL) AND (wanted_location IS NULL)) OR ((wanted_name IS NOT NULL) AND (wanted_status IS NOT NULL)))),
    CONSTRAINT wanted_status_columns_match_status CHECK ((((wanted_status IS NULL) AND (wanted_quantity IS NULL) AND (wanted_is_on_back_order IS NULL)) OR ((wanted_status = 'in_stock'::text) AND (wanted_quantity IS NOT NULL) AND (wanted_quantity >= 1) AND (wanted_is_on_back_order IS NULL)) OR ((wanted_status = 'out_of_stock'::text) AND (wanted_quantity IS NULL) AND (wanted_is_on_back_order IS NOT NULL) AND (wanted_is_on_back_order = ANY (ARRAY[0, 1])))))
);

CREATE TABLE item_event_context (
    item_id text COLLATE "C" NOT NULL,
    adjusted_by bigint,
    origin text COLLATE "C",
    intent_id text COLLATE "C",
    CONSTRAINT item_event_context_adjusted_by_check CHECK (((adjusted_by IS NULL) OR (adjusted_by <> 0))),
    CONSTRAINT item_event_context_intent_id_check CHECK (((intent_id IS NULL) OR (intent_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))),
    CONSTRAINT item_event_context_item_id_check CHECK ((item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT item_event_context_origin_check CHECK (((origin IS NULL) OR (origin ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))),
    CONSTRAINT item_event_context_pkey PRIMARY KEY (item_id),
    CONSTRAINT origin_with_intent CHECK (((origin IS NULL) = (intent_id IS NULL)))
);

CREATE TABLE item_events (
    item_id text COLLATE "C" NOT NULL,
    version bigint NOT NULL,
    kind text COLLATE "C" NOT NULL,
    recorded_at text COLLATE "C" NOT NULL,
    from_name text COLLATE "C",
    to_name text COLLATE "C",
    color_changed smallint,
    from_color text COLLATE "C",
    to_color text COLLATE "C",
    from_status text COLLATE "C",
    from_quantity bigint,
    from_is_on_back_order smallint,
    to_status text COLLATE "C",
    to_quantity bigint,
    to_is_on_back_order smallint,
    "position" bigint NOT NULL,
    location_changed smallint,
    from_location text,
    to_location text,
    adjusted_by bigint,
    origin text COLLATE "C",
    intent_id text COLLATE "C",
    CONSTRAINT added_is_version_one CHECK (((kind = 'added'::text) = (version = 1))),
    CONSTRAINT adjustment_is_a_change CHECK (((adjusted_by IS NULL) OR (kind = 'changed'::text))),
    CONSTRAINT from_status_columns_match_status CHECK ((((from_status IS NULL) AND (from_quantity IS NULL) AND (from_is_on_back_order IS NULL)) OR ((from_status = 'in_stock'::text) AND (from_quantity IS NOT NULL) AND (from_quantity >= 1) AND (from_is_on_back_order IS NULL)) OR ((from_status = 'out_of_stock'::text) AND (from_quantity IS NULL) AND (from_is_on_back_order IS NOT NULL) AND (from_is_on_back_order = ANY (ARRAY[0, 1]))))),
    CONSTRAINT item_events_adjusted_by_check CHECK (((adjusted_by IS NULL) OR (adjusted_by <> 0))),
    CONSTRAINT item_events_color_changed_check CHECK ((color_changed = ANY (ARRAY[0, 1]))),
    CONSTRAINT item_events_from_color_check CHECK ((from_color = ANY (ARRAY['black'::text, 'blue'::text, 'green'::text, 'red'::text, 'white'::text, 'yellow'::text]))),
    CONSTRAINT item_events_from_location_check CHECK (((from_location IS NULL) OR ((char_length(from_location) >= 1) AND (octet_length(from_location) <= 800) AND (from_location = btrim(from_location, ' '::text)) AND (from_location !~ '[\x01-\x1f\x7f]'::text)))),
    CONSTRAINT item_events_from_status_check CHECK ((from_status = ANY (ARRAY['in_stock'::text, 'out_of_stock'::text]))),
    CONSTRAINT item_events_intent_id_check CHECK (((intent_id IS NULL) OR (intent_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))),
    CONSTRAINT item_events_item_id_check CHECK ((item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT item_events_kind_check CHECK ((kind = ANY (ARRAY['added'::text, 'changed'::text, 'deleted'::text]))),
    CONSTRAINT item_events_location_changed_check CHECK ((location_changed = 1)),
    CONSTRAINT item_events_origin_check CHECK (((origin IS NULL) OR (origin ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))),
    CONSTRAINT item_events_pkey PRIMARY KEY (item_id, version),
    CONSTRAINT item_events_position_check CHECK (("position" >= 1)),
    CONSTRAINT item_events_recorded_at_check CHECK ((recorded_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT item_events_to_color_check CHECK ((to_color = ANY (ARRAY['black'::text, 'blue'::text, 'green'::text, 'red'::text, 'white'::text, 'yellow'::text]))),
    CONSTRAINT item_events_to_location_check CHECK (((to_location IS NULL) OR ((char_length(to_location) >= 1) AND (octet_length(to_location) <= 800) AND (to_location = btrim(to_location, ' '::text)) AND (to_location !~ '[\x01-\x1f\x7f]'::text)))),
    CONSTRAINT item_events_to_name_check CHECK (((to_name IS NULL) OR (length(btrim(to_name, (((((' '::text || chr(9)) || chr(10)) || chr(11)) || chr(12)) || chr(13)))) > 0))),
    CONSTRAINT item_events_to_status_check CHECK ((to_status = ANY (ARRAY['in_stock'::text, 'out_of_stock'::text]))),
    CONSTRAINT item_events_version_check CHECK ((version >= 1)),
    CONSTRAINT origin_with_intent CHECK (((origin IS NULL) = (intent_id IS NULL))),
    CONSTRAINT payload_matches_kind CHECK ((((kind = 'added'::text) AND (from_name IS NULL) AND (to_name IS NOT NULL) AND (color_changed IS NULL) AND (from_color IS NULL) AND (from_status IS NULL) AND (to_status IS NOT NULL) AND (location_changed IS NULL) AND (from_location IS NULL)) OR ((kind = 'changed'::text) AND (((from_name IS NULL) AND (to_name IS NULL)) OR ((from_name IS NOT NULL) AND (to_name IS NOT NULL) AND (from_name IS DISTINCT FROM to_name))) AND (color_changed IS NOT NULL) AND (((color_changed = 0) AND (from_color IS NULL) AND (to_color IS NULL)) OR ((color_changed = 1) AND (from_color IS DISTINCT FROM to_color))) AND (((from_status IS NULL) AND (to_status IS NULL)) OR ((from_status IS NOT NULL) AND (to_status IS NOT NULL) AND (NOT ((NOT (from_status IS DISTINCT FROM to_status)) AND (NOT (from_quantity IS DISTINCT FROM to_quantity)) AND (NOT (from_is_on_back_order IS DISTINCT FROM to_is_on_back_order)))))) AND (((location_changed IS NULL) AND (from_location IS NULL) AND (to_location IS NULL)) OR ((COALESCE((location_changed)::integer, 0) = 1) AND (from_location IS DISTINCT FROM to_location))) AND ((to_name IS NOT NULL) OR (color_changed = 1) OR (to_status IS NOT NULL) OR (COALESCE((location_changed)::integer, 0) = 1))) OR ((kind = 'deleted'::text) AND (from_name IS NULL) AND (to_name IS NULL) AND (color_changed IS NULL) AND (from_color IS NULL) AND (to_color IS NULL) AND (from_status IS NULL) AND (to_status IS NULL) AND (location_changed IS NULL) AND (from_location IS NULL) AND (to_location IS NULL)))),
    CONSTRAINT to_status_columns_match_status CHECK ((((to_status IS NULL) AND (to_quantity IS NULL) AND (to_is_on_back_order IS NULL)) OR ((to_status = 'in_stock'::text) AND (to_quantity IS NOT NULL) AND (to_quantity >= 1) AND (to_is_on_back_order IS NULL)) OR ((to_status = 'out_of_stock'::text) AND (to_quantity IS NULL) AND (to_is_on_back_order IS NOT NULL) AND (to_is_on_back_order = ANY (ARRAY[0, 1])))))
);

CREATE TABLE items (
    id text COLLATE "C" NOT NULL,
    name text COLLATE "C" NOT NULL,
    color text COLLATE "C",
    status text COLLATE "C" NOT NULL,
    quantity bigint,
    is_on_back_order smallint,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL,
    location text,
    CONSTRAINT items_color_check CHECK ((color = ANY (ARRAY['black'::text, 'blue'::text, 'green'::text, 'red'::text, 'white'::text, 'yellow'::text]))),
    CONSTRAINT items_created_at_check CHECK ((created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT items_id_check CHECK ((id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT items_location_check CHECK (((location IS NULL) OR ((char_length(location) >= 1) AND (octet_length(location) <= 800) AND (location = btrim(location, ' '::text)) AND (location !~ '[\x01-\x1f\x7f]'::text)))),
    CONSTRAINT items_name_check CHECK ((length(btrim(name, (((((' '::text || chr(9)) || chr(10)) || chr(11)) || chr(12)) || chr(13)))) > 0)),
    CONSTRAINT items_pkey PRIMARY KEY (id),
    CONSTRAINT items_status_check CHECK ((status = ANY (ARRAY['in_stock'::text, 'out_of_stock'::text]))),
    CONSTRAINT items_updated_at_check CHECK ((updated_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT status_columns_match_status CHECK ((((status = 'in_stock'::text) AND (quantity IS NOT NULL) AND (quantity >= 1) AND (is_on_back_order IS NULL)) OR ((status = 'out_of_stock'::text) AND (quantity IS NULL) AND (is_on_back_order IS NOT NULL) AND (is_on_back_order = ANY (ARRAY[0, 1])))))
);

CREATE TABLE items_search_ranges (
    trigram text COLLATE "C" NOT NULL,
    head text COLLATE "C" NOT NULL,
    first_start text COLLATE "C" NOT NULL,
    last_start text COLLATE "C" NOT NULL,
    CONSTRAINT items_search_ranges_pkey PRIMARY KEY (trigram, head)
);

CREATE TABLE schema_migrations (
    version bigint NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at text NOT NULL,
    CONSTRAINT schema_migrations_pkey PRIMARY KEY (version)
);

CREATE TABLE sync_applied (
    intent_id text COLLATE "C" NOT NULL,
    origin text COLLATE "C" NOT NULL,
    applied_at text COLLATE "C" NOT NULL,
    CONSTRAINT sync_applied_applied_at_check CHECK ((applied_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT sync_applied_intent_id_check CHECK ((intent_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT sync_applied_origin_check CHECK ((origin ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT sync_applied_pkey PRIMARY KEY (intent_id)
);

CREATE TABLE sync_identity (
    singleton integer NOT NULL,
    database_id text COLLATE "C" NOT NULL,
    CONSTRAINT sync_identity_database_id_check CHECK ((database_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT sync_identity_pkey PRIMARY KEY (singleton),
    CONSTRAINT sync_identity_singleton_check CHECK ((singleton = 1))
);

CREATE TABLE sync_origins (
    replica_id text COLLATE "C" NOT NULL,
    machine_id text COLLATE "C" NOT NULL,
    path text COLLATE "C" NOT NULL,
    first_seen text COLLATE "C" NOT NULL,
    CONSTRAINT sync_origins_first_seen_check CHECK ((first_seen ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT sync_origins_machine_id_check CHECK ((length(machine_id) > 0)),
    CONSTRAINT sync_origins_path_check CHECK ((length(path) > 0)),
    CONSTRAINT sync_origins_pkey PRIMARY KEY (replica_id),
    CONSTRAINT sync_origins_replica_id_check CHECK ((replica_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))
);

CREATE TRIGGER item_events_are_never_deleted BEFORE DELETE ON item_events FOR EACH ROW EXECUTE FUNCTION item_events_refuse_change();

CREATE TRIGGER item_events_are_never_truncated BEFORE TRUNCATE ON item_events FOR EACH STATEMENT EXECUTE FUNCTION item_events_refuse_change();

CREATE TRIGGER item_events_are_never_updated BEFORE UPDATE ON item_events FOR EACH ROW EXECUTE FUNCTION item_events_refuse_change();

CREATE TRIGGER item_events_follow_on BEFORE INSERT ON item_events FOR EACH ROW EXECUTE FUNCTION item_events_guard();

CREATE TRIGGER item_events_tell_listeners AFTER INSERT ON item_events FOR EACH STATEMENT EXECUTE FUNCTION item_events_notify();

CREATE TRIGGER items_are_never_truncated BEFORE TRUNCATE ON items FOR EACH STATEMENT EXECUTE FUNCTION items_refuse_truncate();

CREATE TRIGGER items_id_never_changes BEFORE UPDATE OF id ON items FOR EACH ROW WHEN ((new.id IS DISTINCT FROM old.id)) EXECUTE FUNCTION items_refuse_id_change();

CREATE TRIGGER items_record_added AFTER INSERT ON items FOR EACH ROW EXECUTE FUNCTION items_record_history();

CREATE TRIGGER items_record_changes AFTER UPDATE OF name, color, status, quantity, is_on_back_order, location ON items FOR EACH ROW WHEN (((new.name IS DISTINCT FROM old.name) OR (new.color IS DISTINCT FROM old.color) OR (new.status IS DISTINCT FROM old.status) OR (new.quantity IS DISTINCT FROM old.quantity) OR (new.is_on_back_order IS DISTINCT FROM old.is_on_back_order) OR (new.location IS DISTINCT FROM old.location))) EXECUTE FUNCTION items_record_history();

CREATE TRIGGER items_record_deletion AFTER DELETE ON items FOR EACH ROW EXECUTE FUNCTION items_record_history();

CREATE TRIGGER items_search_ranges_after_insert AFTER INSERT ON items REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION items_search_ranges_cover_inserted();

CREATE TRIGGER items_search_ranges_after_update AFTER UPDATE ON items REFERENCING OLD TABLE AS previous NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION items_search_ranges_cover_updated();

CREATE TRIGGER items_take_history_turn BEFORE INSERT OR DELETE OR UPDATE ON items FOR EACH STATEMENT EXECUTE FUNCTION items_history_turn();

CREATE INDEX drafts_by_created ON drafts USING btree (created_at, id);

CREATE UNIQUE INDEX drafts_new_item_once ON drafts USING btree (item_id) WHERE (kind = ANY (ARRAY['adding'::text, 'duplicating'::text]));

CREATE UNIQUE INDEX item_events_by_position ON item_events USING btree ("position");

CREATE INDEX items_by_color_name ON items USING btree (color, name, id);

CREATE INDEX items_by_name ON items USING btree (name, id);

CREATE INDEX items_by_name_trigram ON items USING gin (name stockroom_extensions.gin_trgm_ops);

CREATE INDEX items_by_status_name ON items USING btree (status, name, id);

CREATE OR REPLACE FUNCTION item_events_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION item_events_notify()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM pg_notify('stockroom_item_events', '');
    RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION item_events_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION 'item_events is append-only: history cannot be changed' USING ERRCODE = 'restrict_violation';
    END IF;
    RAISE EXCEPTION 'item_events is append-only: history cannot be deleted' USING ERRCODE = 'restrict_violation';
END;
$function$;

CREATE OR REPLACE FUNCTION item_events_take_turn()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION items_history_turn()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM item_events_take_turn();
    RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION items_record_history()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
    previous_version bigint;
    previous_time text;
    changed_time text;
    status_changed boolean;
    context item_event_context%ROWTYPE;
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF EXISTS (SELECT 1 FROM item_events WHERE item_id = NEW.id AND version = 1) THEN
            RAISE EXCEPTION 'items: this id belonged to a deleted item, whose history is kept; an id is never reused (insert the item under a new id)'
                USING ERRCODE = 'restrict_violation';
        END IF;
        SELECT * INTO context FROM item_event_context WHERE item_id = NEW.id;
        INSERT INTO item_events (item_id, version, kind, recorded_at,
                                 to_name, to_color, to_status, to_quantity, to_is_on_back_order, to_location,
                                 origin, intent_id)
        VALUES (NEW.id, 1, 'added', NEW.updated_at,
                NEW.name, NEW.color, NEW.status, NEW.quantity, NEW.is_on_back_order, NEW.location,
                context.origin, context.intent_id);
        RETURN NULL;
    END IF;

    SELECT version, recorded_at INTO previous_version, previous_time
    FROM item_events WHERE item_id = OLD.id ORDER BY version DESC LIMIT 1;
    -- Compared byte by byte (COLLATE "C"), as the column is: a language collation may skip
    -- punctuation.
    changed_time := greatest(previous_time COLLATE "C",
                             to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') COLLATE "C");
    -- The id never changes (items_id_never_changes), so OLD.id names the item on UPDATE too.
    SELECT * INTO context FROM item_event_context WHERE item_id = OLD.id;

    IF TG_OP = 'DELETE' THEN
        INSERT INTO item_events (item_id, version, kind, recorded_at, origin, intent_id)
        VALUES (OLD.id, coalesce(previous_version, 0) + 1, 'deleted', changed_time,
                context.origin, context.intent_id);
        RETURN NULL;
    END IF;

    status_changed := NEW.status IS DISTINCT FROM OLD.status OR NEW.quantity IS DISTINCT FROM OLD.quantity
        OR NEW.is_on_back_order IS DISTINCT FROM OLD.is_on_back_order;
    INSERT INTO item_events (item_id, version, kind, recorded_at,
                             from_name, to_name, color_changed, from_color, to_color,
                             from_status, from_quantity, from_is_on_back_order,
                             to_status, to_quantity, to_is_on_back_order,
                             location_changed, from_location, to_location,
                             adjusted_by, origin, intent_id)
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
            CASE WHEN status_changed THEN NEW.is_on_back_order END,
            CASE WHEN NEW.location IS DISTINCT FROM OLD.location THEN 1 END,
            CASE WHEN NEW.location IS DISTINCT FROM OLD.location THEN OLD.location END,
            CASE WHEN NEW.location IS DISTINCT FROM OLD.location THEN NEW.location END,
            context.adjusted_by, context.origin, context.intent_id);
    RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION items_refuse_id_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    RAISE EXCEPTION 'items: an item''s id never changes (its history is kept under it); delete the item and insert a new one instead'
        USING ERRCODE = 'restrict_violation';
END;
$function$;

CREATE OR REPLACE FUNCTION items_refuse_truncate()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    RAISE EXCEPTION 'items: TRUNCATE would record no deletion in item_events; use DELETE FROM items'
        USING ERRCODE = 'restrict_violation';
END;
$function$;

CREATE OR REPLACE FUNCTION items_search_ranges_cover_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION items_search_ranges_cover_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION items_search_ranges_rebuild()
 RETURNS void
 LANGUAGE sql
AS $function$
    DELETE FROM items_search_ranges;
    INSERT INTO items_search_ranges (trigram, head, first_start, last_start)
    SELECT lower(substr(name, position, 3)), left(name, 2), min(left(name, 8)), max(left(name, 8))
    FROM items CROSS JOIN LATERAL generate_series(1, length(name) - 2) AS position
    GROUP BY 1, 2;
$function$;
