import FoundationEssentials
import Glibc
import Inventory
import TextFormats

/// One row of an import file, decoded and checked against the domain's rules.
struct ImportedRow {
    /// The id the row names, or nil when a new one is to be made.
    var id: UUID?
    /// The row's fields, under a stand-in id; an optional text the row leaves out, empty or
    /// blank is none.
    var fields: Item
    /// Whether the row gave its times; their text is in the decoder's buffers.
    var hasCreatedAt: Bool
    var hasUpdatedAt: Bool

    /// The item the row describes, under `id`: the one place an imported row's fields become an
    /// item's, for every import path.
    @inline(__always)
    func item(id: UUID) -> Item {
        Item.assembling(id: id, name: fields.name, color: fields.color, status: fields.status) { $0.text(in: fields) }
    }
}

/// Turns rows of CSV or JSON Lines into ``ImportedRow``s. One decoder serves a whole import and
/// reuses its buffers, so a row costs one `String` (its name) and no other allocation.
final class ImportRowDecoder {
    /// The text of the current row's `created_at` / `updated_at`.
    private(set) var createdAt: [UInt8] = []
    private(set) var updatedAt: [UInt8] = []
    private var scratch: [UInt8] = []
    private var statusKey: [UInt8] = []
    private var statusCase: [UInt8] = []
    /// The current row's optional texts, by ``OptionalTextField``'s raw value.
    private var texts = [String?](repeating: nil, count: OptionalTextField.allCases.count)
    /// The JSON name of each status case, indexed by its tag's raw value.
    private let jsonCaseNames: [[UInt8]]

    init() {
        createdAt.reserveCapacity(32)
        updatedAt.reserveCapacity(32)
        scratch.reserveCapacity(256)
        // The JSON names of the status cases, as the presentation writes them.
        jsonCaseNames = StatusCodec.jsonCaseNames.map { Array($0.utf8) }
    }

    // MARK: CSV

    /// Which field of a record holds which column, from the header row.
    struct CSVColumns {
        private var id: Int?, name: Int?, color: Int?, status: Int?, quantity: Int?, isOnBackOrder: Int?
        private var createdAt: Int?, updatedAt: Int?
        private var texts = [Int?](repeating: nil, count: OptionalTextField.allCases.count)
        private(set) var fieldCount = 0

        /// The field holding `column`, or nil when the header has none.
        subscript(column: ItemCSVLayout.Column) -> Int? {
            get {
                switch column {
                case .id: id
                case .name: name
                case .color: color
                case .status: status
                case .quantity: quantity
                case .isOnBackOrder: isOnBackOrder
                case .text(let text): texts[text.rawValue]
                case .createdAt: createdAt
                case .updatedAt: updatedAt
                }
            }
            set {
                switch column {
                case .id: id = newValue
                case .name: name = newValue
                case .color: color = newValue
                case .status: status = newValue
                case .quantity: quantity = newValue
                case .isOnBackOrder: isOnBackOrder = newValue
                case .text(let text): texts[text.rawValue] = newValue
                case .createdAt: createdAt = newValue
                case .updatedAt: updatedAt = newValue
                }
            }
        }

        /// Reads the header record.
        init(header reader: CSVReader) throws {
            fieldCount = reader.fieldCount
            for field in 0..<reader.fieldCount {
                let title = reader.withField(field) { String(decoding: $0, as: UTF8.self) }
                guard let column = ItemCSVLayout.Column.allCases.first(where: { $0.title == title }) else {
                    throw RowProblem("unknown column '\(title)' in the header (columns: \(ItemCSVLayout.titles.joined(separator: ", ")))")
                }
                guard self[column] == nil else { throw RowProblem("column '\(title)' appears twice in the header") }
                self[column] = field
            }
            for required in [ItemCSVLayout.Column.name, .status] where self[required] == nil {
                throw RowProblem("the header has no '\(required.title)' column")
            }
        }
    }

    /// Decodes the reader's current record.
    func decode(_ reader: CSVReader, columns: CSVColumns) throws -> ImportedRow {
        guard reader.fieldCount == columns.fieldCount else {
            throw RowProblem("expected \(columns.fieldCount) fields as in the header, found \(reader.fieldCount)")
        }
        var id: UUID?
        if let index = columns[.id] {
            id = try reader.withField(index) { bytes throws in try ImportRowDecoder.id(bytes) }
        }
        let name = try reader.withField(columns[.name]!) { bytes throws in
            try ImportRowDecoder.text(ItemCSVLayout.removingFormulaGuard(bytes), column: "name")
        }
        var color: Color?
        if let index = columns[.color] {
            color = try reader.withField(index) { bytes throws in
                bytes.isEmpty ? nil : try ImportRowDecoder.color(bytes)
            }
        }
        let status = try csvStatus(reader, columns: columns)
        for text in OptionalTextField.allCases {
            var value: String?
            if let index = columns[.text(text)] {
                value = try reader.withField(index) { bytes throws in
                    bytes.isEmpty ? nil : try ImportRowDecoder.optionalText(text, ItemCSVLayout.removingFormulaGuard(bytes))
                }
            }
            texts[text.rawValue] = value
        }
        var hasCreated = false, hasUpdated = false
        if let index = columns[.createdAt] {
            hasCreated = try reader.withField(index) { bytes throws in try ImportRowDecoder.timestamp(bytes, into: &createdAt, column: "created_at") }
        }
        if let index = columns[.updatedAt] {
            hasUpdated = try reader.withField(index) { bytes throws in try ImportRowDecoder.timestamp(bytes, into: &updatedAt, column: "updated_at") }
        }
        return try checked(id: id, name: name, color: color, status: status, hasCreatedAt: hasCreated, hasUpdatedAt: hasUpdated)
    }

    /// The status columns through ``StatusCodec``: its tag text, the quantity, the flag as 1/0
    /// (or, from older exports, true/false).
    private func csvStatus(_ reader: CSVReader, columns: CSVColumns) throws -> Status {
        // Only for messages: built when a row is refused, not for every row.
        func tagText(_ tag: StatusCodec.Tag) -> StaticString { StatusCodec.text(for: tag) }
        let tag = try reader.withField(columns[.status]!) { bytes throws -> StatusCodec.Tag in
            if let tag = StatusCodec.tag(matching: bytes) { return tag }
            if bytes.isEmpty { throw RowProblem("missing status (\(StatusCodec.tagList))") }
            throw RowProblem("unknown status \(ImportRowDecoder.quoted(bytes)) (\(StatusCodec.tagList))")
        }
        let quantity: Int? = try columns[.quantity].flatMap { index throws in
            try reader.withField(index) { bytes throws -> Int? in
                guard !bytes.isEmpty else { return nil }
                guard let value = ImportRowDecoder.integer(bytes) else {
                    throw RowProblem("quantity \(ImportRowDecoder.quoted(bytes)) is not a whole number")
                }
                return value
            }
        }
        let flag: Bool? = try columns[.isOnBackOrder].flatMap { index throws in
            try reader.withField(index) { bytes throws -> Bool? in
                guard !bytes.isEmpty else { return nil }
                if let flag = StatusCodec.flag(matching: bytes) ?? ItemCSVLayout.legacyFlag(bytes) { return flag }
                throw RowProblem("is_on_back_order \(ImportRowDecoder.quoted(bytes)) is not \(StatusCodec.flagText(true)) or \(StatusCodec.flagText(false))")
            }
        }
        return try ImportRowDecoder.status(
            tag, quantity: quantity, flag: flag,
            flagOnInStock: { "a back-order flag on an in-stock row (is_on_back_order must be empty for \(tagText(.inStock)))" },
            missingQuantity: { "\(tagText(.inStock)) needs a quantity" },
            quantityOnOutOfStock: { "a quantity on an out-of-stock row (quantity must be empty for \(tagText(.outOfStock)))" },
            missingFlag: { "\(tagText(.outOfStock)) needs is_on_back_order \(StatusCodec.flagText(true)) or \(StatusCodec.flagText(false))" })
    }

    // MARK: JSON Lines

    /// The keys of an item object: `id`, each field's ``ItemField/key`` in the declaration's
    /// order, the times; a key's index is its bit in the set of keys seen.
    private static let jsonKeys: [[UInt8]] = (["id"] + ItemField.allCases.map(\.key) + ["createdAt", "updatedAt"]).map { Array($0.utf8) }
    private static let createdAtKey = jsonKeys.count - 2, updatedAtKey = jsonKeys.count - 1

    /// Decodes one line of JSON Lines: an object as `stockroom export` writes it. Keys may come
    /// in any order; `id`, `color`, the optional texts and the times may be left out (or null),
    /// and `status` too when there is a `defaultStatus`.
    func decode(jsonLine line: UnsafeBufferPointer<UInt8>, defaultStatus: Status? = nil) throws -> ImportedRow {
        var scanner = JSONScanner(line)
        var id: UUID?, name: String?, color: Color?, status: Status?
        for index in texts.indices { texts[index] = nil }
        var hasCreated = false, hasUpdated = false
        var seen = 0 // one bit per key
        try scanner.expect(UInt8(ascii: "{"))
        if scanner.peek() == UInt8(ascii: "}") {
            scanner.index += 1
        } else {
            repeat {
                try scanner.string(into: &scratch)
                let keys = ImportRowDecoder.jsonKeys
                guard let key = keys.firstIndex(of: scratch) else {
                    let list = keys.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")
                    throw RowProblem("unknown key \(JSONText.string(String(decoding: scratch, as: UTF8.self))) (keys: \(list))")
                }
                guard seen & (1 << key) == 0 else { throw RowProblem("key \(JSONText.string(String(decoding: scratch, as: UTF8.self))) appears twice") }
                seen |= 1 << key
                try scanner.expect(UInt8(ascii: ":"))
                switch key {
                case 0:
                    if !scanner.null() {
                        try scanner.string(into: &scratch)
                        id = try scratch.withUnsafeBufferPointer { bytes throws in try ImportRowDecoder.id(bytes) }
                    }
                case ImportRowDecoder.createdAtKey:
                    if !scanner.null() {
                        try scanner.string(into: &scratch)
                        hasCreated = try scratch.withUnsafeBufferPointer { bytes throws in try ImportRowDecoder.timestamp(bytes, into: &createdAt, column: "createdAt") }
                    }
                case ImportRowDecoder.updatedAtKey:
                    if !scanner.null() {
                        try scanner.string(into: &scratch)
                        hasUpdated = try scratch.withUnsafeBufferPointer { bytes throws in try ImportRowDecoder.timestamp(bytes, into: &updatedAt, column: "updatedAt") }
                    }
                default:
                    let field = ItemField(rawValue: key - 1)!
                    switch field.kind {
                    case .name:
                        try scanner.string(into: &scratch)
                        name = try scratch.withUnsafeBufferPointer { bytes throws in try ImportRowDecoder.text(bytes, column: field.key) }
                    case .color:
                        if !scanner.null() {
                            try scanner.string(into: &scratch)
                            color = try scratch.withUnsafeBufferPointer { bytes throws in try ImportRowDecoder.color(bytes) }
                        }
                    case .status:
                        status = try jsonStatus(&scanner)
                    case .optionalText(let text):
                        if !scanner.null() {
                            try scanner.string(into: &scratch)
                            texts[text.rawValue] = try scratch.withUnsafeBufferPointer { bytes throws in try ImportRowDecoder.optionalText(text, bytes) }
                        }
                    }
                }
            } while try scanner.more(before: UInt8(ascii: "}"))
        }
        guard scanner.isAtEnd() else { throw scanner.problem("text after the object") }
        guard let name else { throw RowProblem("missing name") }
        guard let status = status ?? defaultStatus else { throw RowProblem("missing status") }
        return try checked(id: id, name: name, color: color, status: status, hasCreatedAt: hasCreated, hasUpdatedAt: hasUpdated)
    }

    private func jsonStatus(_ scanner: inout JSONScanner) throws -> Status {
        var hasCase = false, quantity: Int?, flag: Bool?
        try scanner.expect(UInt8(ascii: "{"))
        if scanner.peek() == UInt8(ascii: "}") {
            scanner.index += 1
        } else {
            repeat {
                try scanner.string(into: &statusKey)
                try scanner.expect(UInt8(ascii: ":"))
                switch String(decoding: statusKey, as: UTF8.self) {
                case "case":
                    try scanner.string(into: &statusCase)
                    hasCase = true
                case "quantity": quantity = try scanner.integer()
                case "isOnBackOrder": flag = try scanner.bool()
                case let other: throw RowProblem("unknown key \(JSONText.string(other)) in status (keys: case, quantity, isOnBackOrder)")
                }
            } while try scanner.more(before: UInt8(ascii: "}"))
        }
        // Only for messages: built when a row is refused, not for every row.
        func name(_ tag: StatusCodec.Tag) -> String { String(decoding: jsonCaseNames[Int(tag.rawValue)], as: UTF8.self) }
        var caseList: String { StatusCodec.Tag.allCases.map(name).joined(separator: " or ") }
        guard hasCase else { throw RowProblem("the status has no case (\(caseList))") }
        guard let tag = StatusCodec.firstTag(where: { jsonCaseNames[Int($0.rawValue)] == statusCase }) else {
            throw RowProblem("unknown status case \(JSONText.string(String(decoding: statusCase, as: UTF8.self))) (\(caseList))")
        }
        return try ImportRowDecoder.status(
            tag, quantity: quantity, flag: flag,
            flagOnInStock: { "a back-order flag on an in-stock row (isOnBackOrder belongs to \(name(.outOfStock)))" },
            missingQuantity: { "\(name(.inStock)) needs a quantity" },
            quantityOnOutOfStock: { "a quantity on an out-of-stock row (quantity belongs to \(name(.inStock)))" },
            missingFlag: { "\(name(.outOfStock)) needs isOnBackOrder true or false" })
    }

    /// A status from its tag and the parts a row gave, by one rule for both formats: an
    /// in-stock row needs a quantity and no flag, an out-of-stock row a flag and no quantity.
    /// Each format words the refusals in its own field names (built only when a row is refused).
    @inline(__always)
    static func status(_ tag: StatusCodec.Tag, quantity: Int?, flag: Bool?,
                       flagOnInStock: () -> String, missingQuantity: () -> String,
                       quantityOnOutOfStock: () -> String, missingFlag: () -> String) throws -> Status {
        switch tag {
        case .inStock:
            if flag != nil { throw RowProblem(flagOnInStock()) }
            guard let quantity else { throw RowProblem(missingQuantity()) }
            return .inStock(quantity: quantity)
        case .outOfStock:
            if quantity != nil { throw RowProblem(quantityOnOutOfStock()) }
            guard let flag else { throw RowProblem(missingFlag()) }
            return .outOfStock(isOnBackOrder: flag)
        }
    }

    // MARK: Fields

    /// Stands in for the id of a row without one while its other fields are checked.
    private static let placeholderID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The row of the fields decoded and the optional texts in ``texts``, checked by the domain's
    /// own rules, so that import refuses exactly what `items add` refuses.
    private func checked(id: UUID?, name: String, color: Color?, status: Status,
                         hasCreatedAt: Bool, hasUpdatedAt: Bool) throws -> ImportedRow {
        let texts = self.texts
        let row = ImportedRow(
            id: id,
            fields: Item.assembling(id: ImportRowDecoder.placeholderID, name: name, color: color, status: status) { texts[$0.rawValue] },
            hasCreatedAt: hasCreatedAt, hasUpdatedAt: hasUpdatedAt)
        do {
            try row.item(id: row.id ?? ImportRowDecoder.placeholderID).validate()
        } catch let error as InventoryError {
            throw RowProblem(error == .blankName ? "missing or blank name" : error.description)
        } catch {
            throw RowProblem("\(error)")
        }
        return row
    }

    @inline(__always)
    private static func id(_ bytes: UnsafeBufferPointer<UInt8>) throws -> UUID? {
        guard !bytes.isEmpty else { return nil }
        guard let id = UUID(canonicalUTF8: bytes) else { throw RowProblem("malformed id \(quoted(bytes)) (a UUID: 8-4-4-4-12 hex digits)") }
        return id
    }

    @inline(__always)
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, column: String) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw RowProblem("invalid UTF-8 in \(column)") }
        return text
    }

    /// An optional text by its field's rule: trimmed, nil when blank.
    private static func optionalText(_ field: OptionalTextField, _ bytes: UnsafeBufferPointer<UInt8>) throws -> String? {
        do {
            return try field.parse(try text(bytes, column: field.field.key))
        } catch let error as InventoryError {
            throw RowProblem(error.description)
        }
    }

    @inline(__always)
    private static func color(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Color {
        for color in Color.allCases {
            var raw = color.rawValue
            if raw.withUTF8({ $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) { return color }
        }
        throw RowProblem("unknown colour \(quoted(bytes)) (one of \(Color.allCases.map(\.rawValue).joined(separator: ", ")))")
    }

    /// Copies a time into `buffer`; false when the field is empty (the import's own time is used).
    /// The shape is `YYYY-MM-DDTHH:MM:SS`, an optional fraction of a second, then `Z` (UTC), as
    /// Stockroom writes times. Nothing else may follow the seconds: `export` writes a time as
    /// it is, unescaped, into JSON strings and CSV fields, so a time holding a quote, a
    /// backslash or a comma (which the schema's `…*Z` pattern lets through) would break the
    /// export of the row (found by the import-row fuzz target).
    @inline(__always)
    private static func timestamp(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8], column: String) throws -> Bool {
        guard !bytes.isEmpty else { return false }
        let pattern = Array("dddd-dd-ddTdd:dd:dd".utf8)
        var valid = bytes.count > pattern.count && bytes.count <= 40 && bytes[bytes.count - 1] == UInt8(ascii: "Z")
        if valid {
            for (index, expected) in pattern.enumerated() {
                let byte = bytes[index]
                if expected == UInt8(ascii: "d") ? !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) : byte != expected {
                    valid = false
                    break
                }
            }
            var index = pattern.count
            if bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fraction = index
                while index < bytes.count - 1, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                if index == fraction { valid = false }
            }
            if index != bytes.count - 1 { valid = false }
        }
        guard valid else { throw RowProblem("\(column) \(quoted(bytes)) is not an ISO-8601 UTC time such as 2026-11-22T15:04:05.123Z") }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: bytes)
        return true
    }

    /// Whole number text, or nil.
    @inline(__always)
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; index = 1 }
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            // Built towards its sign, so the most negative Int (one past the most positive) fits.
            let digit = Int(byte - UInt8(ascii: "0"))
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = sum
            index += 1
        }
        return value
    }

    /// A field's text for a message: quoted, cut short, invalid UTF-8 shown as U+FFFD.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return JSONText.string(shown)
    }
}
