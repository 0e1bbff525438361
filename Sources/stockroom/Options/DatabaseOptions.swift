import ArgumentParser
import FoundationEssentials
import Glibc
import StockroomStore

/// Where the database is and how long to wait for other writers: shared by every command.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file, or a PostgreSQL URI (postgresql://...). Default: $STOCKROOM_DB, else ${XDG_DATA_HOME:-~/.local/share}/stockroom/stockroom.sqlite.",
        valueName: "path"), completion: .file())
    var db: String?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds to wait while another process holds the write lock before giving up with exit code 75.",
        valueName: "seconds"))
    var busyTimeout: Double = 5

    func validate() throws {
        guard busyTimeout >= 0, busyTimeout <= 3600 else {
            throw ValidationError("--busy-timeout must be between 0 and 3600 seconds")
        }
        if let db, db.isEmpty { throw ValidationError("--db must not be empty") }
    }

    /// Where the inventory is: --db, $STOCKROOM_DB, or the XDG default, in that order; a
    /// `postgresql://` or `postgres://` URI is a PostgreSQL database, anything else a file.
    func resolvedLocation() -> DatabaseLocation {
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

    var busyTimeoutMilliseconds: Int32 { Int32((busyTimeout * 1000).rounded()) }

    /// Opens the store to write (creating and migrating the file when needed).
    func openStore() throws -> InventoryStore {
        try InventoryStore(location: locationForWriting(), busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// Opens the store to read `contents` without changing the file; a missing file reads as
    /// an empty inventory and is not created.
    func openStoreForReading(_ contents: InventoryStore.Contents) throws -> InventoryStore {
        try InventoryStore.reading(location: resolvedLocation(), busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: contents)
    }

    /// Where to open the inventory for writing. The default location's folder is created on
    /// first use; a folder named by --db or $STOCKROOM_DB is the user's to create, so a typo
    /// fails (74). (The default is always a file: a server is only ever named.)
    func locationForWriting() -> DatabaseLocation {
        let location = resolvedLocation()
        if db == nil, ProcessInfo.processInfo.environment["STOCKROOM_DB"]?.isEmpty ?? true {
            let path = location.description
            try? FileManager.default.createDirectory(
                atPath: String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]), withIntermediateDirectories: true)
        }
        return location
    }

    /// The refusal of a command that needs an existing file.
    func missing(_ path: String) -> Failure.Message {
        Failure.Message(code: .notFound, description: "no database at \(path)")
    }
}
