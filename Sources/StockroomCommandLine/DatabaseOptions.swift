import ArgumentParser
import StockroomStore

/// Where the database is and how long to wait for other writers: shared by every command.
package struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file, or a PostgreSQL URI (postgresql://...). Default: $STOCKROOM_DB, else ${XDG_DATA_HOME:-~/.local/share}/stockroom/stockroom.sqlite.",
        valueName: "path"), completion: .file())
    package var db: String?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds to wait while another process holds the write lock before giving up with exit code 75.",
        valueName: "seconds"))
    package var busyTimeout: Double = DatabaseChoice.defaultBusyTimeout

    /// Both options at their defaults (ArgumentParser fills them in).
    package init() {}

    /// The two options as a plain value; the rules and the opening live there, shared with the
    /// fast path.
    package var choice: DatabaseChoice { DatabaseChoice(db: db, busyTimeout: busyTimeout) }

    package func validate() throws {
        if let problem = choice.problem { throw ValidationError(problem) }
    }

    /// See ``DatabaseChoice/resolvedLocation()``.
    package func resolvedLocation() -> DatabaseLocation { choice.resolvedLocation() }

    /// See ``DatabaseChoice/busyTimeoutMilliseconds``.
    package var busyTimeoutMilliseconds: Int32 { choice.busyTimeoutMilliseconds }

    /// See ``DatabaseChoice/openStore()``.
    package func openStore() throws -> InventoryStore { try choice.openStore() }

    /// See ``DatabaseChoice/openStoreForReading(_:)``.
    package func openStoreForReading(_ contents: InventoryStore.Contents) throws -> InventoryStore {
        try choice.openStoreForReading(contents)
    }

    /// See ``DatabaseChoice/locationForWriting()``.
    package func locationForWriting() -> DatabaseLocation { choice.locationForWriting() }

    /// See ``DatabaseChoice/missing(_:)``.
    package func missing(_ path: String) -> Failure.Message { choice.missing(path) }
}
