import FoundationEssentials
import Inventory

/// The case of `Draft` as the columns `kind` (the tag) and `source_item_id`, followed by the
/// item the draft holds (`item_id, name, …`):
///
///     .adding(item)                      'adding'       NULL
///     .duplicating(item, sourceItemID:)  'duplicating'  the source's id
package enum DraftCodec: TaggedCodec {
    /// The cases of `Draft` as stored in the tag column (raw values in declaration order, for
    /// ``TaggedCodec``'s `tag(matching:)`).
    public enum Tag: UInt8, CaseIterable, Sendable {
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
        let tag = statement.withText(at: kindIndex) { bytes in Self.tag(matching: bytes) }
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
