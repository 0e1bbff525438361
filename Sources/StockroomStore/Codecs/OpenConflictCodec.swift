import FoundationEssentials
import Inventory

/// An ``OpenConflict`` as the columns a `resolving` draft adds to `drafts` (migration 0012),
/// all NULL for the other kinds:
///
///     conflict_reason          ConflictReason.Case's raw value ('oversold', …)
///     conflict_origin          the replica's id
///     conflict_made_at         when, by the replica's clock
///     conflict_hub_holds_item  1 when shown_* is the hub's item, 0 for the replica's last copy
///     conflict_adjustment      the adjustment: oversold and quantity_overflow only
///     conflict_missing         the units missing: oversold only
///     shown_name, …            the item shown, every field but the id (the draft's item_id)
///     wanted_name, …           the item wanted, or all NULL for a wanted delete
///
/// The shown and wanted items are tagged as `items` is (``ItemCodec/fieldColumns(prefix:)``).
enum OpenConflictCodec {
    static let shownPrefix = "shown_"
    static let wantedPrefix = "wanted_"

    /// The columns, in bind order.
    static let columns = ["conflict_reason", "conflict_origin", "conflict_made_at", "conflict_hub_holds_item",
                          "conflict_adjustment", "conflict_missing"]
        + ItemCodec.fieldColumns(prefix: shownPrefix) + ItemCodec.fieldColumns(prefix: wantedPrefix)

    /// How many columns a conflict takes (all NULL for a draft that is not `resolving`).
    static var columnCount: Int { columns.count }

    /// How many columns one item's fields take.
    private static var itemFieldCount: Int { ItemCodec.fieldColumns(prefix: "").count }

    /// Binds every column: the conflict's, or NULL in each for none.
    static func bind<Sink: ParameterSink>(_ conflict: OpenConflict?, to row: inout RowBinder<Sink>) throws {
        guard let conflict else { return try row.bindNulls(columnCount) }
        try row.bind(conflict.reason.rawValue)
        try row.bind(conflict.origin)
        try row.bind(conflict.madeAt)
        try row.bind(conflict.hubHoldsItem ? 1 : 0)
        if let adjustment = conflict.adjustment { try row.bind(adjustment) } else { try row.bindNulls() }
        if let missing = conflict.missing { try row.bind(missing) } else { try row.bindNulls() }
        try ItemCodec.bindFields(conflict.shown, to: &row)
        if let wanted = conflict.wanted { try ItemCodec.bindFields(wanted, to: &row) } else { try row.bindNulls(itemFieldCount) }
    }

    /// Reads the columns: nil when every one is NULL (a draft that is not `resolving`). The
    /// shown and wanted items take `itemID`, the draft's `item_id`.
    static func decode<Source: ColumnSource>(itemID: UUID, from row: inout RowReader<Source>) throws(ColumnDecodingError) -> OpenConflict? {
        if row.areNull(columnCount) {
            row.skip(columnCount)
            return nil
        }
        let statement = row.statement
        let reasonIndex = row.next(), originIndex = row.next(), madeAtIndex = row.next(), holdsIndex = row.next()
        let adjustment = statement.optionalInt(at: row.next())
        let missing = statement.optionalInt(at: row.next())
        guard let reason = statement.optionalText(at: reasonIndex).flatMap(ConflictReason.Case.init(rawValue:)) else {
            throw ColumnDecodingError(reason: "conflict_reason \(statement.describeColumn(at: reasonIndex)) is not one of \(ConflictReason.Case.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let origin = statement.uuid(at: originIndex) else {
            throw ColumnDecodingError(reason: "conflict_origin \(statement.describeColumn(at: originIndex)) is not a UUID")
        }
        guard let madeAt = statement.optionalText(at: madeAtIndex) else {
            throw ColumnDecodingError(reason: "conflict_made_at is NULL in a conflict")
        }
        guard let holds = statement.optionalInt(at: holdsIndex), holds == 0 || holds == 1 else {
            throw ColumnDecodingError(reason: "conflict_hub_holds_item \(statement.describeColumn(at: holdsIndex)) is not 0 or 1")
        }
        // The rule of the migration's CHECK: each reason has exactly its own numbers.
        let hasAdjustment = reason == .oversold || reason == .quantityOverflow
        guard (adjustment != nil) == hasAdjustment, (missing != nil) == (reason == .oversold) else {
            throw ColumnDecodingError(reason: "conflict_reason '\(reason.rawValue)' with conflict_adjustment \(adjustment.map(String.init) ?? "NULL") and conflict_missing \(missing.map(String.init) ?? "NULL") is not a valid conflict (oversold has both; quantity_overflow an adjustment only; the others neither)")
        }
        let shown = try ItemCodec.decodeFields(id: itemID, from: &row)
        var wanted: Item?
        if row.areNull(itemFieldCount) {
            row.skip(itemFieldCount)
        } else {
            wanted = try ItemCodec.decodeFields(id: itemID, from: &row)
        }
        return OpenConflict(shown: shown, hubHoldsItem: holds == 1, wanted: wanted, origin: origin, madeAt: madeAt,
                            reason: reason, adjustment: adjustment, missing: missing)
    }
}
