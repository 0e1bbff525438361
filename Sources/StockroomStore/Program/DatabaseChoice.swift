import FoundationEssentials
import Glibc

/// The database a command uses and how long it waits for other writers, as `--db` and
/// `--busy-timeout` chose them: a plain value, with the rules and the opening written once for
/// every program, whether it reads its command line with ArgumentParser (`stockroom`'s
/// `DatabaseOptions`, `stockroom-serve`) or without (`stockroom`'s fast path).
package struct DatabaseChoice: Equatable {
    /// `--busy-timeout`'s default, in seconds.
    package static let defaultBusyTimeout: Double = 5

    /// `--db`'s description in a program's help.
    package static var databaseHelp: String {
        "The database file, or a PostgreSQL URI (postgresql://...). Default: $STOCKROOM_DB, else ${XDG_DATA_HOME:-~/.local/share}/stockroom/stockroom.sqlite."
    }

    /// `--busy-timeout`'s description in a program's help.
    package static var busyTimeoutHelp: String {
        "Seconds to wait while another process holds the write lock before giving up with exit code \(Failure.Code.busy.rawValue)."
    }

    /// `--db`, when given.
    package var db: String?
    /// `--busy-timeout`, in seconds.
    package var busyTimeout: Double = defaultBusyTimeout

    /// A choice of `db` (nil: $STOCKROOM_DB or the default) waiting up to `busyTimeout` seconds.
    package init(db: String? = nil, busyTimeout: Double = defaultBusyTimeout) {
        self.db = db
        self.busyTimeout = busyTimeout
    }

    /// Why these values are refused (the message of the usage error), or nil when they are valid.
    package var problem: String? {
        guard busyTimeout >= 0, busyTimeout <= 3600 else {
            return "--busy-timeout must be between 0 and 3600 seconds"
        }
        if let db, db.isEmpty { return "--db must not be empty" }
        return nil
    }

    /// Where the inventory is: --db, $STOCKROOM_DB, or the XDG default, in that order; a
    /// `postgresql://` or `postgres://` URI is a PostgreSQL database, anything else a file.
    package func resolvedLocation() -> DatabaseLocation {
        DatabaseLocation(resolvedValue())
    }

    /// The text chosen by --db, $STOCKROOM_DB, or the XDG default, in that order.
    private func resolvedValue() -> String {
        Failure.startWaiting() // every command resolves the path before it opens the file
        if let db { return db }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["STOCKROOM_DB"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/share"
        return dataHome + "/stockroom/stockroom.sqlite"
    }

    /// `--busy-timeout` as the store's internals take it.
    package var busyTimeoutMilliseconds: Int32 { Int32((busyTimeout * 1000).rounded()) }

    /// `--busy-timeout` as the public API takes it.
    package var busyTimeoutDuration: Duration { .milliseconds(busyTimeoutMilliseconds) }

    /// Opens the store to write (creating and migrating the file when needed).
    package func openStore() throws -> InventoryStore {
        try InventoryStore(location: locationForWriting(), busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// Opens the store to read `contents` without changing the file; a missing file reads as
    /// an empty inventory and is not created.
    package func openStoreForReading(_ contents: InventoryStore.Contents) throws -> InventoryStore {
        try InventoryStore.reading(location: resolvedLocation(), busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: contents)
    }

    /// Where to open the inventory for writing. The default location's folder is created on
    /// first use; a folder named by --db or $STOCKROOM_DB is the user's to create, so a typo
    /// fails (74). (The default is always a file: a server is only ever named.)
    package func locationForWriting() -> DatabaseLocation {
        let location = resolvedLocation()
        if db == nil, ProcessInfo.processInfo.environment["STOCKROOM_DB"]?.isEmpty ?? true {
            let path = location.description
            try? FileManager.default.createDirectory(
                atPath: String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]), withIntermediateDirectories: true)
        }
        return location
    }

    /// The refusal of a command that needs an existing file.
    package func missing(_ path: String) -> Failure.Message {
        Failure.Message(code: .notFound, description: "no database at \(path)")
    }
}
