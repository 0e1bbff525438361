/// The engines Stockroom keeps an inventory in: the one type that names an engine. Each has its
/// own folder of migrations (`Migrations/<rawValue>/`), its own migration runner
/// (``MigrationRunning``) and, in StockroomStore, its own folder of engine code
/// (`Sources/StockroomStore/Engines/<engine>/`).
public enum DatabaseEngine: String, Sendable, CaseIterable {
    /// A SQLite file: `Migrations/sqlite/`.
    case sqlite
    /// A PostgreSQL server: `Migrations/postgres/`.
    case postgres
}
