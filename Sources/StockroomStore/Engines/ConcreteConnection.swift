import SQLiteCore

/// Each engine's connection type, one case each: the one exhaustive list of engines, for the
/// place where two connections meet (``InventoryCopy``, which runs a copy specialised for each
/// pair). Everything else reaches an engine through ``EngineConnection``.
enum ConcreteConnection {
    case sqlite(Database)
    case postgres(PostgresStoreConnection)
}
