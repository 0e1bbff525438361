import Inventory

/// An ``OptionalTextField`` as one nullable text column: NULL for none, else its text (which the
/// CHECKs of the migration that added the column keep to the field's rule).
enum OptionalTextCodec {
    @inline(__always)
    static func bind<Sink: ParameterSink>(_ text: String?, to row: inout RowBinder<Sink>) throws {
        if let text { try row.bind(text) } else { try row.bindNulls() }
    }

    @inline(__always)
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) -> String? {
        row.statement.optionalText(at: row.next())
    }
}
