import FoundationEssentials
import Glibc
import Inventory

/// `Color?` as one nullable `color` column: NULL for no colour, else the colour's name.
enum ColorCodec {
    static let column = "color"

    @inline(__always)
    static func text(for color: Color) -> StaticString {
        switch color {
        case .black: "black"
        case .blue: "blue"
        case .green: "green"
        case .red: "red"
        case .white: "white"
        case .yellow: "yellow"
        }
    }

    @inline(__always)
    static func bind<Sink: ParameterSink>(_ color: Color?, to row: inout RowBinder<Sink>) throws {
        if let color { try row.bindStatic(text(for: color)) } else { try row.bindNulls() }
    }

    @inline(__always)
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Color? {
        let index = row.next()
        let statement = row.statement
        if statement.isNull(at: index) { return nil }
        let found = statement.withText(at: index) { bytes -> Color? in
            // Dispatch on length first: every candidate compared is the only one of its length
            // but for black/green/white, which the first comparison separates.
            switch bytes.count {
            case 3: return ColumnText.equals(bytes, text(for: .red)) ? .red : nil
            case 4: return ColumnText.equals(bytes, text(for: .blue)) ? .blue : nil
            case 5:
                if ColumnText.equals(bytes, text(for: .black)) { return .black }
                if ColumnText.equals(bytes, text(for: .green)) { return .green }
                return ColumnText.equals(bytes, text(for: .white)) ? .white : nil
            case 6: return ColumnText.equals(bytes, text(for: .yellow)) ? .yellow : nil
            default: return nil
            }
        }
        guard let found else {
            throw ColumnDecodingError(reason: "\(statement.columnName(at: index)) \(statement.describeColumn(at: index)) is not one of \(Color.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return found
    }
}

/// An `Item` as the columns `id, name, color` and its status's columns; `drafts` names the id
/// column `item_id`.
enum ItemCodec {
    /// The columns, in bind order.
    static func columns(idColumn: String = "id") -> [String] {
        [idColumn, "name", ColorCodec.column] + StatusCodec.columns()
    }

    /// Binds all of the item's columns.
    @inline(__always)
    static func bind<Sink: ParameterSink>(_ item: Item, to row: inout RowBinder<Sink>) throws {
        try row.bind(item.id)
        try row.bind(item.name)
        try ColorCodec.bind(item.color, to: &row)
        try StatusCodec.bind(item.status, to: &row)
    }

    /// Reads the colour and status and leaves the id and name where they are, as the positions
    /// of their columns: for readers that copy their text out without making `String`s (export).
    @inline(__always)
    static func decodeInPlace<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> (id: Int, name: Int, color: Color?, status: Status) {
        let idIndex = row.next(), nameIndex = row.next()
        return (idIndex, nameIndex, try ColorCodec.decode(from: &row), try StatusCodec.decode(from: &row))
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
            status: try StatusCodec.decode(from: &row))
    }
}

/// The case of `Draft` as the columns `kind` (the tag) and `source_item_id`, followed by the
/// item the draft holds (`item_id, name, …`):
///
///     .adding(item)                      'adding'       NULL
///     .duplicating(item, sourceItemID:)  'duplicating'  the source's id
public enum DraftCodec: TaggedCodec {
    /// The cases of `Draft` as stored in the tag column.
    public enum Tag: CaseIterable, Sendable {
        case adding, duplicating
    }

    static let tagColumn = "kind"
    static let payloadColumns = ["source_item_id"] + ItemCodec.columns(idColumn: "item_id")

    /// The tag's stored text.
    public static func text(for tag: Tag) -> StaticString {
        switch tag {
        case .adding: "adding"
        case .duplicating: "duplicating"
        }
    }

    /// The case of `draft`.
    public static func tag(of draft: Draft) -> Tag {
        switch draft {
        case .adding: .adding
        case .duplicating: .duplicating
        }
    }

    static func bind<Sink: ParameterSink>(_ draft: Draft, to row: inout RowBinder<Sink>) throws {
        try row.bindStatic(text(for: tag(of: draft)))
        switch draft {
        case .adding: try row.bindNulls()
        case .duplicating(_, let source): try row.bind(source)
        }
        try ItemCodec.bind(draft.item, to: &row)
    }

    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Draft {
        let statement = row.statement
        let kindIndex = row.next(), sourceIndex = row.next()
        let tag = statement.withText(at: kindIndex) { bytes -> Tag? in
            if ColumnText.equals(bytes, text(for: .adding)) { return .adding }
            if ColumnText.equals(bytes, text(for: .duplicating)) { return .duplicating }
            return nil
        }
        let item = try ItemCodec.decode(from: &row)
        if let tag {
            switch tag {
            case .adding:
                if statement.isNull(at: sourceIndex) { return .adding(item) }
            case .duplicating:
                if let source = statement.uuid(at: sourceIndex) { return .duplicating(item, sourceItemID: source) }
            }
        }
        throw ColumnDecodingError(reason:
            "kind \(statement.describeColumn(at: kindIndex)) with source_item_id \(statement.describeColumn(at: sourceIndex)) is not a valid draft (\(text(for: .adding)) has no source item; \(text(for: .duplicating)) names one)")
    }
}
