import FoundationEssentials
import Inventory

/// The case of `Draft` as the columns `kind` (the tag) and `source_item_id`, followed by the
/// item the draft holds (`item_id, name, …`), then the conflict a `resolving` draft resolves
/// (``OpenConflictCodec``, `conflict_reason, …`):
///
///     .adding(item)                      'adding'       NULL             no conflict
///     .duplicating(item, sourceItemID:)  'duplicating'  the source's id  no conflict
///     .resolving(item, conflict:)        'resolving'    NULL             the conflict
package enum DraftCodec: TaggedCodec {
    /// The cases of `Draft` as stored in the tag column (raw values in declaration order, for
    /// ``TaggedCodec``'s `tag(matching:)`).
    public enum Tag: UInt8, CaseIterable, Sendable {
        case adding, duplicating, resolving
    }

    static let tagColumn = "kind"
    static let payloadColumns = ["source_item_id"] + ItemCodec.columns(idColumn: "item_id") + OpenConflictCodec.columns

    /// The tag's stored text.
    public static func text(for tag: Tag) -> StaticString {
        switch tag {
        case .adding: "adding"
        case .duplicating: "duplicating"
        case .resolving: "resolving"
        }
    }

    /// The case of `draft`.
    public static func tag(of draft: Draft) -> Tag {
        switch draft {
        case .adding: .adding
        case .duplicating: .duplicating
        case .resolving: .resolving
        }
    }

    static func bind<Sink: ParameterSink>(_ draft: Draft, to row: inout RowBinder<Sink>) throws {
        try row.bindStatic(text(for: tag(of: draft)))
        switch draft {
        case .adding, .resolving: try row.bindNulls()
        case .duplicating(_, let source): try row.bind(source)
        }
        try ItemCodec.bind(draft.item, to: &row)
        try OpenConflictCodec.bind(draft.openConflict, to: &row)
    }

    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Draft {
        let statement = row.statement
        let kindIndex = row.next(), sourceIndex = row.next()
        let tag = statement.withText(at: kindIndex) { bytes in Self.tag(matching: bytes) }
        let item = try ItemCodec.decode(from: &row)
        let conflict = try OpenConflictCodec.decode(itemID: item.id, from: &row)
        if let tag {
            switch tag {
            case .adding:
                if statement.isNull(at: sourceIndex), conflict == nil { return .adding(item) }
            case .duplicating:
                if let source = statement.uuid(at: sourceIndex), conflict == nil { return .duplicating(item, sourceItemID: source) }
            case .resolving:
                if statement.isNull(at: sourceIndex), let conflict { return .resolving(item, conflict: conflict) }
            }
        }
        throw ColumnDecodingError(reason:
            "kind \(statement.describeColumn(at: kindIndex)) with source_item_id \(statement.describeColumn(at: sourceIndex)) and \(conflict == nil ? "no" : "a") conflict is not a valid draft (\(text(for: .adding)) has no source item and no conflict; \(text(for: .duplicating)) names a source item; \(text(for: .resolving)) has a conflict)")
    }
}
