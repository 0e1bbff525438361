import FoundationEssentials
import Glibc
import Inventory

// The rows `stockroom copy` moves, one type per table. Each is decoded from a row of any
// engine and bound to a statement, a COPY or a checksum through the table's codecs and
// layouts (ItemsTable.insertLayout, ItemEventsTable.layout, DraftsTable.layout): the
// column mapping exists there once, and a row that does not decode stops the copy.

/// One table's row as the copy reads, writes and checksums it.
protocol CopiedRow {
    /// The table.
    static var table: String { get }
    /// The columns, in the order rows are read and bound.
    static var columns: ColumnLayout { get }
    /// The primary key: the order rows are read in, and where a page of rows resumes.
    static var keyColumns: [String] { get }
    /// The row in `source`'s current row, columns as in ``columns``.
    init<Source: ColumnSource>(reading source: Source) throws(ColumnDecodingError)
    /// Binds every column, in ``columns`` order, from position 0.
    func bind<Sink: ParameterSink>(to sink: Sink) throws
    /// Binds the key, in ``keyColumns`` order, from position 0.
    func bindKey<Sink: ParameterSink>(to sink: Sink) throws
}

/// An item with its times.
struct CopiedItem: CopiedRow {
    let item: Item
    let createdAt: String
    let updatedAt: String

    static let table = ItemsTable.name
    static let columns = ItemsTable.insertLayout.columns
    static let keyColumns = [ItemsTable.key]

    init<Source: ColumnSource>(reading source: Source) throws(ColumnDecodingError) {
        let layout = ItemsTable.insertLayout
        var row = RowReader(source, at: layout.item)
        item = try ItemCodec.decode(from: &row)
        createdAt = source.text(at: layout.createdAt)
        updatedAt = source.text(at: layout.updatedAt)
    }

    func bind<Sink: ParameterSink>(to sink: Sink) throws {
        let layout = ItemsTable.insertLayout
        var row = RowBinder(sink, at: layout.item)
        try ItemCodec.bind(item, to: &row)
        try sink.bind(createdAt, at: layout.createdAt)
        try sink.bind(updatedAt, at: layout.updatedAt)
    }

    func bindKey<Sink: ParameterSink>(to sink: Sink) throws {
        try sink.bind(item.id, at: 0)
    }
}

/// One event of an item's history, with its position: copied verbatim.
struct CopiedEvent: CopiedRow {
    let itemID: UUID
    let version: Int
    let recordedAt: String
    let event: ItemEvent
    let details: EventDetails
    let position: Int

    static let table = ItemEventsTable.name
    static let columns: ColumnLayout = {
        var columns = ItemEventsTable.layout.columns
        _ = columns.add(ItemEventsTable.positionColumn)
        return columns
    }()
    static let keyColumns = ItemEventsTable.keyColumns

    init<Source: ColumnSource>(reading source: Source) throws(ColumnDecodingError) {
        let layout = ItemEventsTable.layout
        guard let id = source.uuid(at: layout.itemID) else {
            throw ColumnDecodingError(reason: "item_id \(source.describeColumn(at: layout.itemID)) is not a UUID")
        }
        guard let version = source.optionalInt(at: layout.version), version >= 1 else {
            throw ColumnDecodingError(reason: "version \(source.describeColumn(at: layout.version)) is not a version (1 or more)")
        }
        guard let position = source.optionalInt(at: ItemEventsTable.positionIndex), position >= 1 else {
            throw ColumnDecodingError(reason: "position \(source.describeColumn(at: ItemEventsTable.positionIndex)) is not a position (1 or more)")
        }
        self.position = position
        itemID = id
        self.version = version
        recordedAt = source.text(at: layout.recordedAt)
        var row = RowReader(source, at: layout.event)
        event = try ItemEventCodec.decode(from: &row, itemID: id)
        var detailsRow = RowReader(source, at: layout.details)
        details = try EventDetailsCodec.decode(from: &detailsRow, kind: event.case)
    }

    func bind<Sink: ParameterSink>(to sink: Sink) throws {
        let layout = ItemEventsTable.layout
        try sink.bind(itemID, at: layout.itemID)
        try sink.bind(version, at: layout.version)
        try sink.bind(recordedAt, at: layout.recordedAt)
        var row = RowBinder(sink, at: layout.event)
        try ItemEventCodec.bind(event, to: &row)
        var detailsRow = RowBinder(sink, at: layout.details)
        try EventDetailsCodec.bind(details, to: &detailsRow)
        try sink.bind(position, at: ItemEventsTable.positionIndex)
    }

    func bindKey<Sink: ParameterSink>(to sink: Sink) throws {
        try sink.bind(itemID, at: 0)
        try sink.bind(version, at: 1)
    }
}

/// A draft with its id and times.
struct CopiedDraft: CopiedRow {
    let id: UUID
    let draft: Draft
    let createdAt: String
    let updatedAt: String

    static let table = DraftsTable.name
    static let columns = DraftsTable.layout.columns
    static let keyColumns = [DraftsTable.key]

    init<Source: ColumnSource>(reading source: Source) throws(ColumnDecodingError) {
        let layout = DraftsTable.layout
        guard let id = source.uuid(at: layout.id) else {
            throw ColumnDecodingError(reason: "id \(source.describeColumn(at: layout.id)) is not a UUID")
        }
        self.id = id
        var row = RowReader(source, at: layout.draft)
        draft = try DraftCodec.decode(from: &row)
        createdAt = source.text(at: layout.createdAt)
        updatedAt = source.text(at: layout.updatedAt)
    }

    func bind<Sink: ParameterSink>(to sink: Sink) throws {
        let layout = DraftsTable.layout
        try sink.bind(id, at: layout.id)
        var row = RowBinder(sink, at: layout.draft)
        try DraftCodec.bind(draft, to: &row)
        try sink.bind(createdAt, at: layout.createdAt)
        try sink.bind(updatedAt, at: layout.updatedAt)
    }

    func bindKey<Sink: ParameterSink>(to sink: Sink) throws {
        try sink.bind(id, at: 0)
    }
}

/// A checksum of a table's rows as their codecs bind them: each value as its text with its
/// length (integers in decimal, as both engines print them), NULL apart from every text, and
/// each row ended, so values cannot shift from one column or row to the next unnoticed. A
/// column holds one kind of value on both engines, so the text `12` and the integer 12 never
/// meet in one position. It sees decoded values, so it is the same for the same rows on either
/// engine.
///
/// Each row is hashed on its own (64-bit FNV-1a, then mixed) and the rows' hashes are added
/// up: the checksum does not depend on the order rows are read in, so a destination can be
/// read back in whatever order it reads fastest (``StoreConnection/scanRows(of:columns:field:endRow:)``),
/// while a row lost, added, changed or moved to another row's key still changes it (the keys
/// are unique, so no two equal rows cancel out). It tells a faithful copy from a damaged or
/// incomplete one; it is not meant to resist someone forging rows.
final class RowChecksum: ParameterSink {
    private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The hash of the row being bound.
    private var row = RowChecksum.basis
    /// The sum of the ended rows' hashes.
    private(set) var value: UInt64 = 0

    @inline(__always)
    private func addByte(_ byte: UInt8) {
        row = (row ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    @inline(__always)
    private func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        addByte(1)
        addNumber(UInt64(bytes.count))
        for byte in bytes { addByte(byte) }
    }

    @inline(__always)
    private func addNumber(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { addByte(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
    }

    /// Ends the row whose values were just bound and adds its hash, mixed (MurmurHash3's
    /// finaliser) so that rows differing in one byte differ in every bit of what is added.
    func endRow() {
        addByte(0x1E)
        var mixed = row
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        value &+= mixed
        row = RowChecksum.basis
    }

    /// The checksum of a whole copy: the tables' checksums, in the order given, as 16 lowercase
    /// hexadecimal digits.
    static func whole(_ tables: [RowChecksum]) -> String {
        let whole = RowChecksum()
        for table in tables { whole.addNumber(table.value) }
        return hex(whole.row)
    }

    /// 16 lowercase hexadecimal digits.
    var hex: String { RowChecksum.hex(value) }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    func bind(_ value: String, at index: Int) throws {
        var text = value
        text.withUTF8 { add($0) }
    }

    func bind(_ value: Int, at index: Int) throws {
        // The decimal text, as `add` would take it, without making it: its length, then its
        // digits from the most significant one.
        let magnitude = value.magnitude
        var digits = 1, power: UInt = 1
        while magnitude / power >= 10 { power *= 10; digits += 1 }
        addByte(1)
        addNumber(UInt64(digits + (value < 0 ? 1 : 0)))
        if value < 0 { addByte(UInt8(ascii: "-")) }
        var rest = magnitude
        while power > 0 {
            addByte(UInt8(ascii: "0") + UInt8(rest / power))
            rest %= power
            power /= 10
        }
    }

    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws { add(bytes) }

    func bindStatic(_ value: StaticString, at index: Int) throws {
        add(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
    }

    func bindNull(at index: Int) throws { addByte(0) }
}
