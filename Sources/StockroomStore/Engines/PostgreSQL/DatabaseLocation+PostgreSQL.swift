import PostgresCore

// How a `--db` value is read as PostgreSQL's, said by PostgresCore (its connection strings).
extension DatabaseLocation {
    /// True when `text` is a PostgreSQL connection URI (`postgresql://` or `postgres://`, the
    /// scheme in any letter case).
    static func isServerURI(_ text: String) -> Bool {
        ConnectionString.isPostgresURI(text)
    }

    /// `uri` with its password replaced by `***`.
    static func redacted(_ uri: String) -> String {
        ConnectionString.redacted(uri)
    }
}
