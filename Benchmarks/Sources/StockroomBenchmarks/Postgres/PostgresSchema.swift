/// Stockroom's tables in PostgreSQL's dialect, for the raw libpq peer: `items` and `item_events`
/// with the same tagged columns and the same CHECKs as Migrations/0001 and 0003 (GLOB becomes a
/// regular expression, `IS NOT` becomes `IS DISTINCT FROM`, the 0/1 flags become `boolean`),
/// the same three `(…, name, id)` indexes, and the append-only triggers.
///
/// Until Stockroom's own PostgreSQL migrations land (Migrations/postgres, issue 13), this is
/// the benchmark's copy. Once they do, the harness should build its template database with
/// Stockroom's migration runner instead, as `Harness.freshDatabase` does for SQLite, so that
/// both peers work on exactly the product's schema; this file then goes.
enum PostgresSchema {
    static let uuid = "'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'"
    static let timestamp = "'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}.*Z$'"
    static let colors = "('black', 'blue', 'green', 'red', 'white', 'yellow')"

    static let sql = """
        CREATE TABLE items (
            id text NOT NULL PRIMARY KEY CHECK (id ~ \(uuid)),
            name text NOT NULL CHECK (length(btrim(name, E' \\t\\n\\v\\f\\r')) > 0),
            color text NULL CHECK (color IN \(colors)),
            status text NOT NULL CHECK (status IN ('in_stock', 'out_of_stock')),
            quantity integer NULL,
            is_on_back_order boolean NULL,
            created_at text NOT NULL CHECK (created_at ~ \(timestamp)),
            updated_at text NOT NULL CHECK (updated_at ~ \(timestamp)),
            CONSTRAINT status_columns_match_status CHECK (
                (status = 'in_stock' AND quantity IS NOT NULL AND quantity >= 1 AND is_on_back_order IS NULL)
                OR
                (status = 'out_of_stock' AND quantity IS NULL AND is_on_back_order IS NOT NULL)
            )
        );
        CREATE INDEX items_by_name ON items (name, id);
        CREATE INDEX items_by_status_name ON items (status, name, id);
        CREATE INDEX items_by_color_name ON items (color, name, id);

        CREATE TABLE item_events (
            item_id text NOT NULL CHECK (item_id ~ \(uuid)),
            version integer NOT NULL CHECK (version >= 1),
            kind text NOT NULL CHECK (kind IN ('added', 'changed', 'deleted')),
            recorded_at text NOT NULL CHECK (recorded_at ~ \(timestamp)),
            from_name text NULL,
            to_name text NULL CHECK (to_name IS NULL OR length(btrim(to_name, E' \\t\\n\\v\\f\\r')) > 0),
            color_changed boolean NULL,
            from_color text NULL CHECK (from_color IN \(colors)),
            to_color text NULL CHECK (to_color IN \(colors)),
            from_status text NULL CHECK (from_status IN ('in_stock', 'out_of_stock')),
            from_quantity integer NULL,
            from_is_on_back_order boolean NULL,
            to_status text NULL CHECK (to_status IN ('in_stock', 'out_of_stock')),
            to_quantity integer NULL,
            to_is_on_back_order boolean NULL,
            PRIMARY KEY (item_id, version),
            CONSTRAINT from_status_columns_match_status CHECK (
                (from_status IS NULL AND from_quantity IS NULL AND from_is_on_back_order IS NULL)
                OR (from_status = 'in_stock' AND from_quantity IS NOT NULL AND from_quantity >= 1 AND from_is_on_back_order IS NULL)
                OR (from_status = 'out_of_stock' AND from_quantity IS NULL AND from_is_on_back_order IS NOT NULL)
            ),
            CONSTRAINT to_status_columns_match_status CHECK (
                (to_status IS NULL AND to_quantity IS NULL AND to_is_on_back_order IS NULL)
                OR (to_status = 'in_stock' AND to_quantity IS NOT NULL AND to_quantity >= 1 AND to_is_on_back_order IS NULL)
                OR (to_status = 'out_of_stock' AND to_quantity IS NULL AND to_is_on_back_order IS NOT NULL)
            ),
            CONSTRAINT added_is_version_one CHECK ((kind = 'added') = (version = 1)),
            CONSTRAINT payload_matches_kind CHECK (
                (kind = 'added'
                    AND from_name IS NULL AND to_name IS NOT NULL
                    AND color_changed IS NULL AND from_color IS NULL
                    AND from_status IS NULL AND to_status IS NOT NULL)
                OR
                (kind = 'changed'
                    AND ((from_name IS NULL AND to_name IS NULL)
                         OR (from_name IS NOT NULL AND to_name IS NOT NULL AND from_name IS DISTINCT FROM to_name))
                    AND color_changed IS NOT NULL
                    AND ((NOT color_changed AND from_color IS NULL AND to_color IS NULL)
                         OR (color_changed AND from_color IS DISTINCT FROM to_color))
                    AND ((from_status IS NULL AND to_status IS NULL)
                         OR (from_status IS NOT NULL AND to_status IS NOT NULL
                             AND NOT (from_status IS NOT DISTINCT FROM to_status
                                      AND from_quantity IS NOT DISTINCT FROM to_quantity
                                      AND from_is_on_back_order IS NOT DISTINCT FROM to_is_on_back_order)))
                    AND (to_name IS NOT NULL OR color_changed OR to_status IS NOT NULL))
                OR
                (kind = 'deleted'
                    AND from_name IS NULL AND to_name IS NULL AND color_changed IS NULL
                    AND from_color IS NULL AND to_color IS NULL
                    AND from_status IS NULL AND to_status IS NULL)
            )
        );

        CREATE FUNCTION item_events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'UPDATE' THEN
                RAISE EXCEPTION 'item_events is append-only: history cannot be changed';
            END IF;
            RAISE EXCEPTION 'item_events is append-only: history cannot be deleted';
        END
        $$;
        CREATE TRIGGER item_events_are_append_only BEFORE UPDATE OR DELETE ON item_events
            FOR EACH ROW EXECUTE FUNCTION item_events_are_append_only();
        """

    /// The SQL the PostgreSQL peers share (as `SharedSQL` for SQLite), in `$N` placeholders.
    static let insertItem = """
        INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
        """
    static let insertAddedEvent = """
        INSERT INTO item_events (item_id, to_name, to_color, to_status, to_quantity, to_is_on_back_order, recorded_at, version, kind)
        VALUES ($1, $2, $3, $4, $5, $6, $7, 1, 'added')
        """
    static let selectAll = "SELECT id, name, color, status, quantity, is_on_back_order FROM items"
    static let page = """
        SELECT id, name, color, status, quantity, is_on_back_order FROM items
        WHERE status = 'in_stock' AND color = $1 AND name >= $2 AND name < $2 || chr(1114111)
        ORDER BY name, id LIMIT 50
        """
}
