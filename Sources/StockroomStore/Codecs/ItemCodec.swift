import FoundationEssentials
import Inventory

/// An `Item` as its id column then each of ``ItemField``'s columns in the declaration's order
/// (`name, color`, the status's columns, then the optional texts such as `location`); `drafts`
/// names the id column `item_id`. Every method walks the declaration (``ItemField/forEach(_:)``
/// per row, `allCases` for the column lists) with one exhaustive switch over its kind, so a
/// new field is bound, read and listed here without being named.
enum ItemCodec {
    /// The columns, in bind order.
    static func columns(idColumn: String = "id") -> [String] {
        [idColumn] + ItemField.allCases.flatMap(columns(of:))
    }

    /// The columns holding `field`, as ``bind(_:to:)`` binds them.
    static func columns(of field: ItemField) -> [String] {
        switch field.kind {
        case .name, .optionalText: [field.column]
        case .color: [ColorCodec.column]
        case .status: StatusCodec.columns()
        }
    }

    /// The columns of every field but the id, each preceded by `prefix`: a conflict's draft
    /// keeps two more items of its own id as `shown_name, …` and `wanted_name, …`.
    static func fieldColumns(prefix: String) -> [String] {
        ItemField.allCases.flatMap(columns(of:)).map { prefix + $0 }
    }

    /// Binds all of the item's columns.
    @inline(__always)
    static func bind<Sink: ParameterSink>(_ item: Item, to row: inout RowBinder<Sink>) throws {
        try row.bind(item.id)
        try bindFields(item, to: &row)
    }

    /// Binds the columns of ``fieldColumns(prefix:)``: every field but the id.
    @inline(__always)
    static func bindFields<Sink: ParameterSink>(_ item: Item, to row: inout RowBinder<Sink>) throws {
        try ItemField.forEach { field in
            switch field.kind {
            case .name: try row.bind(item.name)
            case .color: try ColorCodec.bind(item.color, to: &row)
            case .status: try StatusCodec.bind(item.status, to: &row)
            case .optionalText(let text): try OptionalTextCodec.bind(text.text(in: item), to: &row)
            }
        }
    }

    /// A row's fields as ``decodeInPlace(from:)`` reads them: the colour and status decoded,
    /// the id, name and every optional text left as the positions of their columns, for readers
    /// that copy their text out without making `String`s (export).
    struct InPlace {
        var id = 0, name = 0
        var color: Color?
        /// Overwritten by the walk (every item has a status); a literal, not a global, so a row
        /// costs no lazy initialisation check.
        var status = Status.outOfStock(isOnBackOrder: false)

        /// The position of `text`'s column in the row.
        @inline(__always)
        func position(of text: OptionalTextField) -> Int { id + ItemCodec.textOffsets[text.rawValue] }
    }

    /// Where each optional text's column is, counted from the id's, by the text's raw value: the
    /// same for every row, so worked out once from ``columns(idColumn:)``.
    static let textOffsets: [Int] = OptionalTextField.allCases.map { text in
        columns().firstIndex(of: text.field.column)!
    }

    /// Reads the colour and status and leaves the id, name and optional texts where they are.
    @inline(__always)
    static func decodeInPlace<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> InPlace {
        var decoded = InPlace()
        decoded.id = row.next()
        try ItemField.forEach { (field) throws(ColumnDecodingError) in
            switch field.kind {
            case .name: decoded.name = row.next()
            case .color: decoded.color = try ColorCodec.decode(from: &row)
            case .status: decoded.status = try StatusCodec.decode(from: &row)
            case .optionalText: row.skip(1)
            }
        }
        return decoded
    }

    /// Reads the columns of ``fieldColumns(prefix:)`` as the item with `id`.
    static func decodeFields<Source: ColumnSource>(id: UUID, from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Item {
        let statement = row.statement
        var name = 0, color: Color?, status = Status.outOfStock(isOnBackOrder: false), texts = [Int](), textFields = [OptionalTextField]()
        try ItemField.forEach { (field) throws(ColumnDecodingError) in
            switch field.kind {
            case .name:
                name = row.next()
                if statement.isNull(at: name) {
                    throw ColumnDecodingError(reason: "\(statement.columnName(at: name)) is NULL while the item's other columns are set")
                }
            case .color: color = try ColorCodec.decode(from: &row)
            case .status: status = try StatusCodec.decode(from: &row)
            case .optionalText(let text):
                texts.append(row.next())
                textFields.append(text)
            }
        }
        return Item.assembling(id: id, name: statement.text(at: name), color: color, status: status) { text in
            textFields.firstIndex(of: text).flatMap { statement.optionalText(at: texts[$0]) }
        }
    }

    /// Reads all of the item's columns.
    @inline(__always)
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Item {
        let statement = row.statement
        let fields = try decodeInPlace(from: &row)
        guard let id = statement.uuid(at: fields.id) else {
            throw ColumnDecodingError(reason: "\(statement.columnName(at: fields.id)) \(statement.describeColumn(at: fields.id)) is not a UUID")
        }
        return Item.assembling(id: id, name: statement.text(at: fields.name), color: fields.color, status: fields.status) {
            statement.optionalText(at: fields.position(of: $0))
        }
    }
}
