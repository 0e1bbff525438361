import SQLiteCore

/// The SQLite library the store runs on, for fronts that report it (`stockroom --version`)
/// without speaking to SQLite themselves.
package enum SQLiteLibrary {
    /// The version of the SQLite library loaded by this process, e.g. "3.40.1".
    public static var version: String { Database.libraryVersion }
}
