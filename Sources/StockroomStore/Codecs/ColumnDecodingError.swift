/// A column value that does not form a valid case; the repository adds which row it was.
struct ColumnDecodingError: Error {
    let reason: String
}
