import Inventory

/// `ItemLocation?` as one nullable text column: NULL for no location, else its text (which the
/// CHECKs of migration 0008 keep to ``ItemLocation``'s rule).
enum LocationCodec {
    static let column = "location"

    @inline(__always)
    static func bind<Sink: ParameterSink>(_ location: ItemLocation?, to row: inout RowBinder<Sink>) throws {
        if let location { try row.bind(location.text) } else { try row.bindNulls() }
    }

    @inline(__always)
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) -> ItemLocation? {
        row.statement.optionalText(at: row.next()).map(ItemLocation.init(stored:))
    }
}
