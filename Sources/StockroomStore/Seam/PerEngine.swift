import StockroomMigrations

/// A value for one engine: a generic implementation's copy specialised for SQLite's
/// connection, or for PostgreSQL's. The public types (``InventoryStore``, ``ItemRepository``,
/// ``DraftRepository``) hold one and switch on it once per call, so each engine's path runs
/// its specialised code with direct calls (BENCHMARKS.md, issue 13).
enum PerEngine<SQLite, PostgreSQL> {
    case sqlite(SQLite)
    case postgres(PostgreSQL)

    /// Which engine this is.
    var engine: DatabaseEngine {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }
}
