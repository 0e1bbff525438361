/// The version `stockroom --version` prints.
package enum StockroomVersion {
    /// The release, `MAJOR.MINOR.PATCH` (semantic versioning): changed by hand, here and
    /// nowhere else, in the commit that makes a release (see docs/cli.md, "Version, shell completions and the manual page").
    package static let number = "0.4.0"

    /// `stockroom 0.4.0 (SQLite 3.40.1)`: the SQLite named is the library the process runs
    /// with, which a system update can change without a rebuild. Opens no database.
    package static var line: String { "stockroom \(number) (SQLite \(SQLiteLibrary.version))" }
}
