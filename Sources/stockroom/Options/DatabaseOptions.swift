import ArgumentParser
import StockroomStore

/// Where the database is and how long to wait for other writers: shared by every command.
/// Declarations only: the rules and the opening are ``DatabaseChoice``'s, shared with the fast
/// path and `stockroom-serve`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(DatabaseChoice.databaseHelp, valueName: "path"), completion: .file())
    var db: String?

    @Option(name: .long, help: ArgumentHelp(DatabaseChoice.busyTimeoutHelp, valueName: "seconds"))
    var busyTimeout: Double = DatabaseChoice.defaultBusyTimeout

    /// The two options as a plain value.
    var choice: DatabaseChoice { DatabaseChoice(db: db, busyTimeout: busyTimeout) }

    func validate() throws {
        if let problem = choice.problem { throw ValidationError(problem) }
    }

    /// See ``DatabaseChoice/resolvedLocation()``.
    func resolvedLocation() -> DatabaseLocation { choice.resolvedLocation() }

    /// See ``DatabaseChoice/busyTimeoutMilliseconds``.
    var busyTimeoutMilliseconds: Int32 { choice.busyTimeoutMilliseconds }

    /// See ``DatabaseChoice/busyTimeoutDuration``.
    var busyTimeoutDuration: Duration { choice.busyTimeoutDuration }

    /// See ``DatabaseChoice/openStore()``.
    func openStore() throws -> InventoryStore { try choice.openStore() }

    /// See ``DatabaseChoice/openStoreForReading(_:)``.
    func openStoreForReading(_ contents: InventoryStore.Contents) throws -> InventoryStore {
        try choice.openStoreForReading(contents)
    }

    /// See ``DatabaseChoice/locationForWriting()``.
    func locationForWriting() -> DatabaseLocation { choice.locationForWriting() }

    /// See ``DatabaseChoice/missing(_:)``.
    func missing(_ path: String) -> Failure.Message { choice.missing(path) }
}
