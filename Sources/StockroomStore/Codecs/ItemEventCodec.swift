import FoundationEssentials
import Glibc
import Inventory

/// `ItemEvent` as the column `kind` (the tag) and the change's columns: the name, colour and
/// status before (`from_…`) and after (`to_…`), with `color_changed` telling a colour change
/// from an unchanged colour (both are NULL pairs when the colour goes from none to none).
///
///     .added(item)      'added'    to_… hold the item; from_… and color_changed NULL
///     .changed(changes) 'changed'  a field's pair filled when it changed, NULL when not;
///                                  color_changed 1 or 0; at least one field changed
///     .deleted          'deleted'  every payload column NULL
///
/// The pairs follow ``ItemField``'s order, each field's as its declaration names it: the status
/// pairs are ``StatusCodec`` under the prefixes `from_` and `to_`; each optional text (such as
/// the location of migration 0008) has `<column>_changed` (1 when it changed, else NULL: events
/// older than the column have NULL) and its pair `from_<column>`, `to_<column>`.
package enum ItemEventCodec: TaggedCodec {
    /// The cases of `ItemEvent` as stored in the tag column (raw values in declaration order,
    /// for ``TaggedCodec``'s `tag(matching:)`).
    public enum Tag: UInt8, CaseIterable, Sendable {
        case added, changed, deleted
    }

    static let tagColumn = "kind"
    static let payloadColumns = ItemField.allCases.flatMap(payloadColumns(of:))

    /// The history columns of `field`, in bind order.
    static func payloadColumns(of field: ItemField) -> [String] {
        switch field.kind {
        case .name: [field.fromColumn, field.toColumn]
        case .color, .optionalText: [field.changedFlagColumn!, field.fromColumn, field.toColumn]
        case .status: StatusCodec.columns(prefix: "from_") + StatusCodec.columns(prefix: "to_")
        }
    }

    /// Where each optional text's `<column>_changed` is, counted from `kind`, by the text's raw
    /// value (its pair follows it).
    static let textOffsets: [Int] = OptionalTextField.allCases.map { text in
        1 + payloadColumns.firstIndex(of: text.field.changedFlagColumn!)!
    }

    /// The tag's stored text.
    @inline(__always)
    public static func text(for tag: Tag) -> StaticString {
        switch tag {
        case .added: "added"
        case .changed: "changed"
        case .deleted: "deleted"
        }
    }

    /// The case of `event`.
    @inline(__always)
    public static func tag(of event: ItemEvent) -> Tag {
        switch event {
        case .added: .added
        case .changed: .changed
        case .deleted: .deleted
        }
    }

    /// The column names, for a CSV header: `kind` then the payload columns.
    public static var columnNames: [String] { columns() }

    /// The payload columns of `.added(item)`, each paired with the `items` column holding the
    /// same value (every item column but the id), so SQL can copy items into their history.
    static var addedColumnsFromItems: [(event: String, item: String)] {
        // `added` fills the to_ side, which holds the item's fields in the item's column order.
        let event = payloadColumns.filter { $0.hasPrefix("to_") }
        let item = Array(ItemCodec.columns().dropFirst())
        precondition(event.count == item.count, "the to_ columns of item_events mirror the item's columns")
        return Array(zip(event, item))
    }

    /// Binds `kind` and the payload columns. The item's id is bound by the caller as `item_id`.
    @inline(__always)
    static func bind<Sink: ParameterSink>(_ event: ItemEvent, to row: inout RowBinder<Sink>) throws {
        try row.bindStatic(text(for: tag(of: event)))
        switch event {
        case .added(let item):
            try ItemField.forEach { field in
                switch field.kind {
                case .name:
                    try row.bindNulls()
                    try row.bind(item.name)
                case .color:
                    try row.bindNulls(2)
                    try ColorCodec.bind(item.color, to: &row)
                case .status:
                    try row.bindNulls(StatusCodec.columnCount)
                    try StatusCodec.bind(item.status, to: &row)
                case .optionalText(let text):
                    try row.bindNulls(2)
                    try OptionalTextCodec.bind(text.text(in: item), to: &row)
                }
            }
        case .changed(let changes):
            try ItemField.forEach { field in
                switch field.kind {
                case .name:
                    if let name = changes.name {
                        try row.bind(name.from)
                        try row.bind(name.to)
                    } else {
                        try row.bindNulls(2)
                    }
                case .color:
                    if let color = changes.color {
                        try row.bind(1)
                        try ColorCodec.bind(color.from, to: &row)
                        try ColorCodec.bind(color.to, to: &row)
                    } else {
                        try row.bind(0)
                        try row.bindNulls(2)
                    }
                case .status:
                    try StatusCodec.bind(changes.status?.from, to: &row)
                    try StatusCodec.bind(changes.status?.to, to: &row)
                case .optionalText(let text):
                    if let change = text.change(in: changes) {
                        try row.bind(1)
                        try OptionalTextCodec.bind(change.from, to: &row)
                        try OptionalTextCodec.bind(change.to, to: &row)
                    } else {
                        try row.bindNulls(3)
                    }
                }
            }
        case .deleted:
            try row.bindNulls(payloadColumns.count)
        }
    }

    /// Reads `kind` and the payload columns of the item with `itemID`.
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>, itemID: UUID) throws(ColumnDecodingError) -> ItemEvent {
        let statement = row.statement
        let start = row.index
        let kindIndex = row.next()
        let tag = statement.withText(at: kindIndex) { bytes in Self.tag(matching: bytes) }
        var fromName: String?, toName: String?, colorChanged: Int?, colorsAreNull = true
        var fromColor: Color?, toColor: Color?, fromStatus: Status?, toStatus: Status?
        try ItemField.forEach { (field) throws(ColumnDecodingError) in
            switch field.kind {
            case .name:
                fromName = statement.optionalText(at: row.next())
                toName = statement.optionalText(at: row.next())
            case .color:
                colorChanged = statement.optionalInt(at: row.next())
                colorsAreNull = row.areNull(2)
                fromColor = try ColorCodec.decode(from: &row)
                toColor = try ColorCodec.decode(from: &row)
            case .status:
                fromStatus = try StatusCodec.decodeOptional(from: &row)
                toStatus = try StatusCodec.decodeOptional(from: &row)
            case .optionalText:
                row.skip(3)
            }
        }
        // An optional text's flag and pair, read where the declaration put them.
        func changedFlag(_ text: OptionalTextField) -> Int? { statement.optionalInt(at: start + textOffsets[text.rawValue]) }
        func from(_ text: OptionalTextField) -> String? { statement.optionalText(at: start + textOffsets[text.rawValue] + 1) }
        func to(_ text: OptionalTextField) -> String? { statement.optionalText(at: start + textOffsets[text.rawValue] + 2) }
        func isUnchanged(_ text: OptionalTextField) -> Bool {
            changedFlag(text) == nil && from(text) == nil && to(text) == nil
        }

        func invalid(_ rule: String) -> ColumnDecodingError {
            let columns = (start..<row.index).map { "\(statement.columnName(at: $0)) \(statement.describeColumn(at: $0))" }
            return ColumnDecodingError(reason: "\(columns.joined(separator: ", ")) is not a valid event: \(rule)")
        }
        guard let tag else {
            throw invalid("the kind is not one of \(tagList)")
        }
        switch tag {
        case .added:
            guard fromName == nil, let toName, !Item.isBlank(toName), colorChanged == nil, fromColor == nil,
                  fromStatus == nil, let toStatus,
                  OptionalTextField.allCases.allSatisfy({ changedFlag($0) == nil && from($0) == nil }) else {
                throw invalid("\(text(for: .added)) holds the whole item in the to_ columns and nothing in the from_ columns")
            }
            return .added(Item.assembling(id: itemID, name: toName, color: toColor, status: toStatus, texts: to))
        case .changed:
            let name: FieldChange<String>?
            switch (fromName, toName) {
            case (nil, nil): name = nil
            case (let from?, let to?) where !Item.isBlank(to):
                guard let change = FieldChange(from: from, to: to) else { throw invalid("a name changed to itself") }
                name = change
            default: throw invalid("a name change needs both names, the new one not blank")
            }
            let color: FieldChange<Color?>?
            switch colorChanged {
            case 0? where colorsAreNull: color = nil
            case 1?:
                guard let change = FieldChange(from: fromColor, to: toColor) else { throw invalid("a colour changed to itself") }
                color = change
            default: throw invalid("color_changed is 1 with the two colours, or 0 with none")
            }
            let status: FieldChange<Status>?
            switch (fromStatus, toStatus) {
            case (nil, nil): status = nil
            case (let from?, let to?):
                guard let change = FieldChange(from: from, to: to) else { throw invalid("a status changed to itself") }
                status = change
            default: throw invalid("a status change needs both statuses")
            }
            for text in OptionalTextField.allCases where !isUnchanged(text) {
                let word = text.field.label.lowercased()
                guard changedFlag(text) == 1 else {
                    throw invalid("\(text.field.changedFlagColumn!) is 1 with the two \(word)s, or NULL with none")
                }
                guard from(text) != to(text) else { throw invalid("a \(word) changed to itself") }
            }
            let changes = ItemChanges.assembling(name: name, color: color, status: status) { text in
                changedFlag(text) == 1 ? FieldChange(from: from(text), to: to(text)) : nil
            }
            guard let changes else {
                throw invalid("\(text(for: .changed)) changes at least one field")
            }
            return .changed(changes)
        case .deleted:
            guard fromName == nil, toName == nil, colorChanged == nil, fromColor == nil, toColor == nil,
                  fromStatus == nil, toStatus == nil, OptionalTextField.allCases.allSatisfy(isUnchanged) else {
                throw invalid("\(text(for: .deleted)) has no payload")
            }
            return .deleted
        }
    }
}
