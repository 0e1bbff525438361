/// The SQL the raw libpq peer runs, on the tables Stockroom's own PostgreSQL migrations build
/// (`Migrations/postgres/`, applied to the template database by `InventoryStore`): the 0/1
/// back-order flags are `smallint` there, as on SQLite.
enum PostgresSQL {
    /// In `$N` placeholders, as `SharedSQL` for SQLite.
    static let insertItem = """
        INSERT INTO items (id, name, color, status, quantity, is_on_back_order, location, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
        """
    /// The whole item, `location` (migration 0008) included, as Stockroom reads it.
    static let selectAll = "SELECT id, name, color, status, quantity, is_on_back_order, location FROM items"
    static let page = """
        SELECT id, name, color, status, quantity, is_on_back_order, location FROM items
        WHERE status = 'in_stock' AND color = $1 AND name >= $2 AND name < $2 || chr(1114111)
        ORDER BY name, id LIMIT 50
        """
}
