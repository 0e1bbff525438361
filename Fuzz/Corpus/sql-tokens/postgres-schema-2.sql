
CREATE TABLE items (
    id text COLLATE "C" NOT NULL,
    name text COLLATE "C" NOT NULL,
    color text COLLATE "C",
    status text COLLATE "C" NOT NULL,
    quantity bigint,
    is_on_back_order smallint,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL,
    CONSTRAINT items_color_check CHECK ((color = ANY (ARRAY['black'::text, 'blue'::text, 'green'::text, 'red'::text, 'white'::text, 'yellow'::text]))),
    CONSTRAINT items_created_at_check CHECK ((created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT items_id_check CHECK ((id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)),
    CONSTRAINT items_name_check CHECK ((length(btrim(name, (((((' '::text || chr(9)) || chr(10)) || chr(11)) || chr(12)) || chr(13)))) > 0)),
    CONSTRAINT items_pkey PRIMARY KEY (id),
    CONSTRAINT items_status_check CHECK ((status = ANY (ARRAY['in_stock'::text, 'out_of_stock'::text]))),
    CONSTRAINT items_updated_at_check CHECK ((updated_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'::text)),
    CONSTRAINT status_columns_match_status CHECK ((((status = 'in_stock'::text) AND (quantity IS NOT NULL) AND (quantity >= 1) AND (is_on_back_order IS NULL)) OR ((status = 'out_of_stock'::text) AND (quantity IS NULL) AND (is_on_back_order IS NOT NULL) AND (is_on_back_order = ANY (ARRAY[0, 1])))))
);