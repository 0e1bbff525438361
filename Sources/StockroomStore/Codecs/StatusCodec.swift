import Inventory

/// `Status` as the columns `status` (the tag), `quantity` and `is_on_back_order`:
///
///     .inStock(quantity: q)          'in_stock'      q      NULL
///     .outOfStock(isOnBackOrder: b)  'out_of_stock'  NULL   0 or 1
///
/// Under a prefix it stores the before and after of a status change in `item_events`.
package enum StatusCodec: TaggedCodec {
    /// The cases of `Status` as stored in the tag column.
    ///
    /// The raw values are the implicit 0, 1, 2, … in declaration order: `tag(matching:)` walks
    /// them, so a new case is matched without being named there.
    public enum Tag: UInt8, CaseIterable, Sendable {
        case inStock, outOfStock
    }

    static let tagColumn = "status"
    static let payloadColumns = ["quantity", "is_on_back_order"]

    /// The tag's stored text, as `status` columns and `check` messages show it.
    @inline(__always)
    public static func text(for tag: Tag) -> StaticString {
        switch tag {
        case .inStock: "in_stock"
        case .outOfStock: "out_of_stock"
        }
    }

    /// The case of `status`.
    @inline(__always)
    public static func tag(of status: Status) -> Tag {
        switch status {
        case .inStock: .inStock
        case .outOfStock: .outOfStock
        }
    }

    /// One `Status` of each tag, for deriving per-case text from the presentation that writes
    /// it (the JSON case names import reads) and for tests that walk every tag.
    public static func example(of tag: Tag) -> Status {
        switch tag {
        case .inStock: .inStock(quantity: Status.minimumQuantity)
        case .outOfStock: .outOfStock(isOnBackOrder: false)
        }
    }

    /// The `"case"` each status has in JSON, by its tag's raw value: the one JSONPresentation
    /// writes for the tag's example (`{"case":"inStock",…}`), read back once here so that it is
    /// spelled in one place. Import, the web front's request bodies and its OpenAPI document
    /// use these.
    package static let jsonCaseNames: [String] = Tag.allCases.map { tag in
        let object = JSONPresentation.object(for: example(of: tag))
        let opening = #"{"case":""#
        precondition(object.hasPrefix(opening), "JSONPresentation writes a status as {\"case\":…}")
        return String(object.dropFirst(opening.count).prefix { $0 != "\"" })
    }

    /// The `"case"` a status of `tag` has in JSON (``jsonCaseNames``).
    package static func jsonCaseName(for tag: Tag) -> String {
        jsonCaseNames[Int(tag.rawValue)]
    }

    /// The tag whose JSON `"case"` is `name` (``jsonCaseName(for:)``), nil for none.
    package static func tag(jsonCaseName name: String) -> Tag? {
        firstTag { jsonCaseName(for: $0) == name }
    }

    /// The three columns' values as text, as CSV writes the raw columns: the tag, the quantity
    /// or "", the back-order flag as "1"/"0" or "".
    public static func columnTexts(for status: Status) -> [String] {
        switch status {
        case .inStock(let quantity): [text(for: .inStock).description, String(quantity), ""]
        case .outOfStock(let isOnBackOrder): [text(for: .outOfStock).description, "", flagText(isOnBackOrder).description]
        }
    }

    /// The back-order flag as its column's text: "1" or "0", as SQLite prints the stored integer.
    @inline(__always)
    public static func flagText(_ isOnBackOrder: Bool) -> StaticString {
        isOnBackOrder ? "1" : "0"
    }

    /// The flag spelled by `bytes` ("1" or "0"), nil for anything else.
    @inline(__always)
    static func flag(matching bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        if ColumnText.equals(bytes, flagText(true)) { return true }
        if ColumnText.equals(bytes, flagText(false)) { return false }
        return nil
    }

    /// Binds the three columns.
    @inline(__always)
    static func bind<Sink: ParameterSink>(_ status: Status, to row: inout RowBinder<Sink>) throws {
        try row.bindStatic(text(for: tag(of: status)))
        switch status {
        case .inStock(let quantity):
            try row.bind(quantity)
            try row.bindNulls()
        case .outOfStock(let isOnBackOrder):
            try row.bindNulls()
            try row.bind(isOnBackOrder ? 1 : 0)
        }
    }

    /// Binds a status, or NULL in all three columns for none (a field an event did not change).
    @inline(__always)
    static func bind<Sink: ParameterSink>(_ status: Status?, to row: inout RowBinder<Sink>) throws {
        if let status { try bind(status, to: &row) } else { try row.bindNulls(columnCount) }
    }

    /// Reads the three columns.
    @inline(__always)
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Status {
        let statement = row.statement
        let tagIndex = row.next(), quantityIndex = row.next(), flagIndex = row.next()
        let found = statement.withText(at: tagIndex) { bytes in tag(matching: bytes) }
        let quantity = statement.optionalInt(at: quantityIndex)
        let flag = statement.optionalInt(at: flagIndex)
        if let found {
            switch found {
            case .inStock:
                if let quantity, quantity >= Status.minimumQuantity, flag == nil { return .inStock(quantity: quantity) }
            case .outOfStock:
                if quantity == nil, let flag, flag == 0 || flag == 1 { return .outOfStock(isOnBackOrder: flag == 1) }
            }
        }
        throw ColumnDecodingError(reason:
            "\(statement.columnName(at: tagIndex)) \(statement.describeColumn(at: tagIndex)) with \(statement.columnName(at: quantityIndex)) \(statement.describeColumn(at: quantityIndex)) and \(statement.columnName(at: flagIndex)) \(statement.describeColumn(at: flagIndex)) is not a valid status (\(text(for: .inStock)) needs a quantity >= \(Status.minimumQuantity) and no back-order flag; \(text(for: .outOfStock)) needs no quantity and a flag of 0 or 1)")
    }

    /// Reads a status, or nil when all three columns are NULL.
    @inline(__always)
    static func decodeOptional<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Status? {
        if row.areNull(columnCount) {
            row.skip(columnCount)
            return nil
        }
        return try decode(from: &row)
    }
}
