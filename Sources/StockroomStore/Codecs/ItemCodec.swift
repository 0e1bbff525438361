import FoundationEssentials
import Inventory

/// An `Item` as the columns `id, name, color`, its status's columns and `location`; `drafts`
/// names the id column `item_id`.
enum ItemCodec {
    /// The columns, in bind order.
    static func columns(idColumn: String = "id") -> [String] {
        [idColumn, "name", ColorCodec.column] + StatusCodec.columns() + [LocationCodec.column]
    }

    /// Binds all of the item's columns.
    @inline(__always)
    static func bind<Sink: ParameterSink>(_ item: Item, to row: inout RowBinder<Sink>) throws {
        try row.bind(item.id)
        try row.bind(item.name)
        try ColorCodec.bind(item.color, to: &row)
        try StatusCodec.bind(item.status, to: &row)
        try LocationCodec.bind(item.location, to: &row)
    }

    /// Reads the colour and status and leaves the id, name and location where they are, as the
    /// positions of their columns: for readers that copy their text out without making
    /// `String`s (export).
    @inline(__always)
    static func decodeInPlace<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> (id: Int, name: Int, color: Color?, status: Status, location: Int) {
        let idIndex = row.next(), nameIndex = row.next()
        let color = try ColorCodec.decode(from: &row), status = try StatusCodec.decode(from: &row)
        return (idIndex, nameIndex, color, status, row.next())
    }

    /// Reads all of the item's columns.
    @inline(__always)
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Item {
        let statement = row.statement
        let idIndex = row.next(), nameIndex = row.next()
        guard let id = statement.uuid(at: idIndex) else {
            throw ColumnDecodingError(reason: "\(statement.columnName(at: idIndex)) \(statement.describeColumn(at: idIndex)) is not a UUID")
        }
        return Item(
            id: id,
            name: statement.text(at: nameIndex),
            color: try ColorCodec.decode(from: &row),
            status: try StatusCodec.decode(from: &row),
            location: LocationCodec.decode(from: &row))
    }
}
