/// A row's column values as text, written by the same codec that binds them into a statement:
/// what `items list --format csv` prints under the column names. NULL is an empty field,
/// numbers are in decimal, as SQLite prints them. Since the codec writes every column, a new
/// column cannot be left out of the CSV or shift the fields after it.
final class ColumnTextRow: ParameterSink {
    private(set) var fields: [String] = []

    init(count: Int) { fields = Array(repeating: "", count: count) }

    func bind(_ value: String, at index: Int) throws { fields[index] = value }
    func bind(_ value: Int, at index: Int) throws { fields[index] = String(value) }
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws { fields[index] = String(decoding: bytes, as: UTF8.self) }
    func bindStatic(_ value: StaticString, at index: Int) throws { fields[index] = value.description }
    func bindNull(at index: Int) throws { fields[index] = "" }
}
