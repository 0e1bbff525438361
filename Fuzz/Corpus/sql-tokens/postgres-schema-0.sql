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
    CONSTRAINT drafts_color_check CHECK ((color = ANY (ARRAY['black'::text, 'blue'::text, 'green'::text, 'red'::text, 'white'::text, 'yellow'::text]))),
    CONSTRAINT drafts_created_at_check CHECK ((created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT drafts_id_check CHECK ((id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT drafts_item_id_check CHECK ((item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT drafts_item_id_key UNIQUE (item_id),
    CONSTRAINT drafts_kind_check CHECK ((kind = ANY (ARRAY['adding'::text, 'duplicating'::text]))),
    CONSTRAINT drafts_pkey PRIMARY KEY (id),
    CONSTRAINT drafts_source_item_id_check CHECK (((source_item_id IS NULL) OR (source_item_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))),
    CONSTRAINT drafts_status_check CHECK ((status = ANY (ARRAY['in_stock'::text, 'out_of_stock'::text]))),
    CONSTRAINT drafts_updated_at_check CHECK ((updated_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT source_matches_kind CHECK ((((kind = 'adding'::text) AND (source_item_id IS NULL)) OR ((kind = 'duplicating'::text) AND (source_item_id IS NOT NULL)))),
    CONSTRAINT status_columns_match_status CHECK ((((status = 'in_stock'::text) AND (quantity IS NOT NULL) AND (quantity >= 1) AND (is_on_back_order IS NULL)) OR ((status = 'out_of_stock'::text) AND (quantity IS NULL) AND (is_on_back_order IS NOT NULL) AND (is_on_back_order = ANY (ARRAY[0, 1])))))
);