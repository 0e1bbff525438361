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
/// The status pairs are ``StatusCodec`` under the prefixes `from_` and `to_`. The location
/// (migration 0008) follows as `location_changed` (1 when it changed, else NULL: events older
/// than the column have NULL) and its pair `from_location`, `to_location`.
package enum ItemEventCodec: TaggedCodec {
    /// The cases of `ItemEvent` as stored in the tag column.
    public enum Tag: CaseIterable, Sendable {
        case added, changed, deleted
    }

    static let tagColumn = "kind"
    static let payloadColumns = ["from_name", "to_name", "color_changed", "from_color", "to_color"]
        + StatusCodec.columns(prefix: "from_") + StatusCodec.columns(prefix: "to_")
        + ["location_changed", "from_location", "to_location"]

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
            try row.bindNulls()
            try row.bind(item.name)
            try row.bindNulls(2)
            try ColorCodec.bind(item.color, to: &row)
            try row.bindNulls(StatusCodec.columnCount)
            try StatusCodec.bind(item.status, to: &row)
            try row.bindNulls(2)
            try LocationCodec.bind(item.location, to: &row)
        case .changed(let changes):
            if let name = changes.name {
                try row.bind(name.from)
                try row.bind(name.to)
            } else {
                try row.bindNulls(2)
            }
            if let color = changes.color {
                try row.bind(1)
                try ColorCodec.bind(color.from, to: &row)
                try ColorCodec.bind(color.to, to: &row)
            } else {
                try row.bind(0)
                try row.bindNulls(2)
            }
            try StatusCodec.bind(changes.status?.from, to: &row)
            try StatusCodec.bind(changes.status?.to, to: &row)
            if let location = changes.location {
                try row.bind(1)
                try LocationCodec.bind(location.from, to: &row)
                try LocationCodec.bind(location.to, to: &row)
            } else {
                try row.bindNulls(3)
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
        let fromNameIndex = row.next(), toNameIndex = row.next(), colorChangedIndex = row.next()
        let tag = statement.withText(at: kindIndex) { bytes -> Tag? in
            if ColumnText.equals(bytes, text(for: .added)) { return .added }
            if ColumnText.equals(bytes, text(for: .changed)) { return .changed }
            if ColumnText.equals(bytes, text(for: .deleted)) { return .deleted }
            return nil
        }
        let fromName = statement.optionalText(at: fromNameIndex)
        let toName = statement.optionalText(at: toNameIndex)
        let colorChanged = statement.optionalInt(at: colorChangedIndex)
        let colorsAreNull = row.areNull(2)
        let fromColor = try ColorCodec.decode(from: &row)
        let toColor = try ColorCodec.decode(from: &row)
        let fromStatus = try StatusCodec.decodeOptional(from: &row)
        let toStatus = try StatusCodec.decodeOptional(from: &row)
        let locationChanged = statement.optionalInt(at: row.next())
        let locationsAreNull = row.areNull(2)
        let fromLocation = LocationCodec.decode(from: &row)
        let toLocation = LocationCodec.decode(from: &row)

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
                  fromStatus == nil, let toStatus, locationChanged == nil, fromLocation == nil else {
                throw invalid("\(text(for: .added)) holds the whole item in the to_ columns and nothing in the from_ columns")
            }
            return .added(Item(id: itemID, name: toName, color: toColor, status: toStatus, location: toLocation))
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
            let location: FieldChange<ItemLocation?>?
            switch locationChanged {
            case nil where locationsAreNull: location = nil
            case 1?:
                guard let change = FieldChange(from: fromLocation, to: toLocation) else { throw invalid("a location changed to itself") }
                location = change
            default: throw invalid("location_changed is 1 with the two locations, or NULL with none")
            }
            guard let changes = ItemChanges(name: name, color: color, status: status, location: location) else {
                throw invalid("\(text(for: .changed)) changes at least one field")
            }
            return .changed(changes)
        case .deleted:
            guard fromName == nil, toName == nil, colorChanged == nil, fromColor == nil, toColor == nil,
                  fromStatus == nil, toStatus == nil, locationChanged == nil, fromLocation == nil, toLocation == nil else {
                throw invalid("\(text(for: .deleted)) has no payload")
            }
            return .deleted
        }
    }
}
