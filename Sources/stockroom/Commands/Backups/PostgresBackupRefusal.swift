import StockroomStore

extension DatabaseOptions {
    /// Refuses `backup` or `restore` on a PostgreSQL database, before connecting: a server is
    /// copied with its own tools (pg_dump, pg_basebackup, WAL archiving), which the README's
    /// recipe shows; Stockroom grows no backup format of its own for it.
    ///
    /// - Throws: a usage failure (exit 64) naming the recipe, the URI without its password.
    func refuseBackupOnPostgres(_ command: String) throws {
        guard case .postgres = resolvedLocation() else { return }
        throw Failure.Message(code: .usage, description:
            "stockroom \(command) works on SQLite files; for the PostgreSQL database \(resolvedLocation()) use pg_dump/pg_restore or pg_basebackup (README, \"Backups on PostgreSQL\")")
    }
}
