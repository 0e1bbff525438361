import PostgresCore

extension SchemaSnapshot {
    /// Reads the schema of the connection's current schema (the first of `search_path`) from
    /// PostgreSQL's catalog: each table as a `CREATE TABLE` rebuilt from its columns and
    /// constraints (constraints in name order), each index, trigger and function as the server
    /// prints it (`pg_get_indexdef`, `pg_get_triggerdef`, `pg_get_functiondef`), with the schema's
    /// name taken out so that a scratch schema and the live one compare equal.
    ///
    /// Indexes that back a PRIMARY KEY or UNIQUE constraint are left out, as on SQLite: they
    /// follow from the table.
    public init(reading connection: Connection) throws {
        let schema = try connection.query("SELECT current_schema()").scalar(String?.self) ?? "public"
        // The quoted and unquoted spellings of "schema." the server may print.
        func unqualified(_ sql: String) -> String {
            var text = sql
            for prefix in ["\"\(schema.replacingAll("\"", with: "\"\""))\".", "\(schema)."] {
                text = text.replacingAll(prefix, with: "")
            }
            return text
        }
        var objects: [Object] = []
        let tables = try connection.query("""
            SELECT c.oid::bigint, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname
            """, schema)
        for table in tables {
            let oid = try table.get(Int.self, at: 0), name = try table.get(String.self, at: 1)
            let columns = try connection.query("""
                SELECT quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod)
                       || CASE WHEN a.attcollation <> t.typcollation THEN ' COLLATE ' || quote_ident(co.collname) ELSE '' END
                       || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
                       || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
                FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
                LEFT JOIN pg_collation co ON co.oid = a.attcollation
                LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                WHERE a.attrelid = $1::bigint::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
                """, oid).map { try $0.get(String.self, at: 0) }
            let constraints = try connection.query("""
                SELECT 'CONSTRAINT ' || quote_ident(conname) || ' ' || pg_get_constraintdef(oid)
                FROM pg_constraint WHERE conrelid = $1::bigint::oid ORDER BY conname
                """, oid).map { try $0.get(String.self, at: 0) }
            let body = (columns + constraints).map { "    " + unqualified($0) }.joined(separator: ",\n")
            objects.append(Object(type: "table", name: name, tableName: name, sql: "CREATE TABLE \(name) (\n\(body)\n)"))
        }
        let others = try connection.query("""
            SELECT 'index', i.relname, t.relname, pg_get_indexdef(x.indexrelid)
            FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
            JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE n.nspname = $1 AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
            UNION ALL
            SELECT 'trigger', g.tgname, t.relname, pg_get_triggerdef(g.oid)
            FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE n.nspname = $1 AND NOT g.tgisinternal
            UNION ALL
            SELECT 'function', p.proname, p.proname, pg_get_functiondef(p.oid)
            FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = $1
            ORDER BY 1 DESC, 3, 2
            """, schema)
        for row in others {
            objects.append(Object(type: try row.get(String.self, at: 0), name: try row.get(String.self, at: 1),
                                  tableName: try row.get(String.self, at: 2),
                                  sql: unqualified(try row.get(String.self, at: 3)).trimmingTrailingWhitespace()))
        }
        self.init(objects: objects, engine: .postgres)
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        return replacing(target, with: replacement)
    }

    func trimmingTrailingWhitespace() -> String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
