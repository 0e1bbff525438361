import SQLiteCore

extension BackupError {
    /// Runs `body`, reporting a file SQLite finds damaged or foreign as ``unreadable(_:reason:)``
    /// of `path`, so the message names the file.
    static func naming<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.isCorruption {
            throw BackupError.unreadable(path, reason: "\(error.message) (\(error.codeName))")
        }
    }
}
