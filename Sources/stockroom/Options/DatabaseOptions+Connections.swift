import Foundation
import SQLiteCore

extension DatabaseOptions {
    /// Opens the database for migrating, creating the file when it does not exist.
    func openForWriting() throws -> Database {
        try Database(path: pathForWriting(), configuration: .init(busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    }

    /// Opens the database read-only, or returns nil when the file does not exist: commands that
    /// only look never create a file.
    func openExistingReadOnly() throws -> Database? {
        let path = resolvedPath()
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Database(path: path, mode: .readOnly, configuration: .init(busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    }

    /// Opens the database read-only.
    ///
    /// - Throws: a not-found failure (exit 66) when the file does not exist.
    func requireExistingReadOnly() throws -> Database {
        guard let database = try openExistingReadOnly() else {
            throw Failure.Message(code: .notFound, description: "no database at \(resolvedPath())")
        }
        return database
    }
}
