import Foundation
import Inventory
import SQLiteCore

// The one place where the domain's enums meet their tagged columns. Every read and write of
// `status`/`quantity`/`is_on_back_order`, of `color`, and of `kind`/`source_item_id` goes
// through here; the CHECK constraints in Migrations/ are the same rules seen from SQL.

/// A column value that does not form a valid case; the repository adds which row it was.
struct ColumnDecodingError: Error {
    let reason: String
}

/// `Status` as the columns `status` (the tag), `quantity` and `is_on_back_order`.
enum StatusColumns {
    static let inStockTag: StaticString = "in_stock"
    static let outOfStockTag: StaticString = "out_of_stock"

    /// Binds the three columns, in that order, starting at parameter `index`.
    @inline(__always)
    static func bind(_ status: Status, to statement: Statement, at index: Int) throws {
        switch status {
        case .inStock(let quantity):
            try statement.bindStatic(inStockTag, at: index)
            try statement.bind(quantity, at: index + 1)
            try statement.bindNull(at: index + 2)
        case .outOfStock(let isOnBackOrder):
            try statement.bindStatic(outOfStockTag, at: index)
            try statement.bindNull(at: index + 1)
            try statement.bind(isOnBackOrder ? 1 : 0, at: index + 2)
        }
    }

    /// Reads the three columns starting at column `index`.
    @inline(__always)
    static func decode(from statement: Statement, at index: Int) throws(ColumnDecodingError) -> Status {
        let tag = statement.withText(at: index) { bytes -> Int? in
            if ColumnText.equals(bytes, inStockTag) { return 0 }
            if ColumnText.equals(bytes, outOfStockTag) { return 1 }
            return nil
        }
        let quantity = statement.optionalInt(at: index + 1)
        let backOrder = statement.optionalInt(at: index + 2)
        switch (tag, quantity, backOrder) {
        case (0, let quantity?, nil) where quantity >= Status.minimumQuantity:
            return .inStock(quantity: quantity)
        case (1, nil, let flag?) where flag == 0 || flag == 1:
            return .outOfStock(isOnBackOrder: flag == 1)
        default:
            let tagText = statement.isNull(at: index) ? "NULL" : "'\(statement.text(at: index))'"
            throw ColumnDecodingError(reason:
                "status \(tagText) with quantity \(quantity.map(String.init) ?? "NULL") and is_on_back_order \(backOrder.map(String.init) ?? "NULL") is not a valid status (in_stock needs quantity >= 1 and no back-order flag; out_of_stock needs no quantity and a flag of 0 or 1)")
        }
    }
}

/// `Color?` as the nullable `color` column.
enum ColorColumn {
    @inline(__always)
    static func bind(_ color: Color?, to statement: Statement, at index: Int) throws {
        guard let color else { return try statement.bindNull(at: index) }
        let value: StaticString = switch color {
        case .black: "black"
        case .blue: "blue"
        case .green: "green"
        case .red: "red"
        case .white: "white"
        case .yellow: "yellow"
        }
        try statement.bindStatic(value, at: index)
    }

    @inline(__always)
    static func decode(from statement: Statement, at index: Int) throws(ColumnDecodingError) -> Color? {
        if statement.isNull(at: index) { return nil }
        let found = statement.withText(at: index) { bytes -> Color? in
            // Dispatch on length first: every candidate compared is the only one of its length
            // but for black/green/white, which the first byte separates.
            switch bytes.count {
            case 3: return ColumnText.equals(bytes, "red") ? .red : nil
            case 4: return ColumnText.equals(bytes, "blue") ? .blue : nil
            case 5:
                if ColumnText.equals(bytes, "black") { return .black }
                if ColumnText.equals(bytes, "green") { return .green }
                return ColumnText.equals(bytes, "white") ? .white : nil
            case 6: return ColumnText.equals(bytes, "yellow") ? .yellow : nil
            default: return nil
            }
        }
        guard let found else {
            throw ColumnDecodingError(reason: "color '\(statement.text(at: index))' is not one of \(Color.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return found
    }
}

/// The case of `Draft` as the columns `kind` (the tag) and `source_item_id`.
enum DraftKindColumns {
    static let addingTag: StaticString = "adding"
    static let duplicatingTag: StaticString = "duplicating"

    /// Binds `kind` and `source_item_id` starting at parameter `index`.
    static func bind(_ draft: Draft, to statement: Statement, at index: Int) throws {
        switch draft {
        case .adding:
            try statement.bindStatic(addingTag, at: index)
            try statement.bindNull(at: index + 1)
        case .duplicating(_, let source):
            try statement.bindStatic(duplicatingTag, at: index)
            try statement.bind(source, at: index + 1)
        }
    }

    /// Builds the draft from its `kind` and `source_item_id` columns and the item it holds.
    static func decode(from statement: Statement, at index: Int, item: Item) throws(ColumnDecodingError) -> Draft {
        let kind = statement.withText(at: index) { bytes -> Int? in
            if ColumnText.equals(bytes, addingTag) { return 0 }
            if ColumnText.equals(bytes, duplicatingTag) { return 1 }
            return nil
        }
        let source: UUID?? = statement.isNull(at: index + 1) ? .some(nil) : statement.withText(at: index + 1) { UUID(canonicalUTF8: $0) }.map { .some($0) }
        switch (kind, source) {
        case (0, .some(nil)): return .adding(item)
        case (1, .some(let id?)): return .duplicating(item, sourceItemID: id)
        default:
            throw ColumnDecodingError(reason:
                "kind '\(statement.text(at: index))' with source_item_id \(statement.optionalText(at: index + 1).map { "'\($0)'" } ?? "NULL") is not a valid draft (adding has no source item; duplicating names one)")
        }
    }
}

/// An `Item` as the six columns `id, name, color, status, quantity, is_on_back_order`, the same
/// in `items` and (as `item_id, …`) in `drafts`.
enum ItemColumns {
    static let count = 6

    /// Binds the six columns starting at parameter `index`.
    @inline(__always)
    static func bind(_ item: Item, to statement: Statement, at index: Int) throws {
        try statement.bind(item.id, at: index)
        try statement.bind(item.name, at: index + 1)
        try ColorColumn.bind(item.color, to: statement, at: index + 2)
        try StatusColumns.bind(item.status, to: statement, at: index + 3)
    }

    /// Reads the six columns starting at column `index`.
    @inline(__always)
    static func decode(from statement: Statement, at index: Int) throws(ColumnDecodingError) -> Item {
        guard let id = statement.withText(at: index, { UUID(canonicalUTF8: $0) }) else {
            throw ColumnDecodingError(reason: "id '\(statement.text(at: index))' is not a UUID")
        }
        return Item(
            id: id,
            name: statement.text(at: index + 1),
            color: try ColorColumn.decode(from: statement, at: index + 2),
            status: try StatusColumns.decode(from: statement, at: index + 3))
    }
}

extension Statement {
    /// Binds an id as its lowercase canonical text, the only form the schema accepts.
    @inline(__always)
    func bind(_ id: UUID, at index: Int) throws {
        try id.withLowercasedUTF8 { try bindText($0, at: index) }
    }
}

/// Byte-level matching of column text, so decoding a tag allocates no `String`.
enum ColumnText {
    /// True when `bytes` spell exactly `text`.
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base, text.utf8Start, bytes.count) == 0
    }
}
