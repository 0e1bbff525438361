import Foundation
import GRDBSQLite
import Inventory

/// The physical limit: sqlite3 C calls made directly, with no abstraction in between, written
/// as fast as we know how (statements prepared once, text bound from stack buffers, columns
/// read as raw bytes).
final class RawImplementation: DraftCycling {
    let name = "raw C API"
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    private static let staticText = unsafeBitCast(0, to: sqlite3_destructor_type.self)
    private static let hexDigits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102)

    func open(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else { throw failure() }
        sqlite3_busy_timeout(db, 5_000)
        try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
    }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        sqlite3_close_v2(db)
        db = nil
    }

    func insert(_ items: [Item]) throws {
        let now = isoNow()
        try exec("BEGIN IMMEDIATE")
        let statement = try prepared(SharedSQL.insertItem)
        // The schema's triggers write each item's version 1 (migration 0004), as for Stockroom.
        try now.withCString { nowText in
            for item in items {
                try bindItem(item, to: statement, at: 1)
                sqlite3_bind_text(statement, 8, nowText, -1, RawImplementation.staticText)
                guard sqlite3_step(statement) == SQLITE_DONE else { throw failure() }
                sqlite3_reset(statement)
            }
        }
        try exec("COMMIT")
    }

    func fetchAll() throws -> [Item] {
        let statement = try prepared(SharedSQL.selectAll)
        defer { sqlite3_reset(statement) }
        var items: [Item] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            items.append(try decodeItem(statement, at: 0))
        }
        return items
    }

    func page(color: Color, namePrefix: String) throws -> [Item] {
        let statement = try prepared(SharedSQL.page)
        defer { sqlite3_reset(statement) }
        RawImplementation.bindStatic(RawImplementation.colorText(color), to: statement, at: 1)
        sqlite3_bind_text(statement, 2, namePrefix, -1, RawImplementation.transient)
        var items: [Item] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            items.append(try decodeItem(statement, at: 0))
        }
        return items
    }

    func draftCycle(itemID: UUID, newName: String) throws {
        let draftID = UUID.version7()
        // 1. Duplicate: read the item, insert a draft holding a copy under a new id.
        try transaction {
            let select = try prepared(SharedSQL.selectItem)
            defer { sqlite3_reset(select) }
            try bindID(itemID, to: select, at: 1)
            guard sqlite3_step(select) == SQLITE_ROW else { throw failure() }
            var copy = try decodeItem(select, at: 0)
            copy = Item(id: UUID.version7(), name: copy.name, color: copy.color, status: copy.status, location: copy.location)
            let insert = try prepared(SharedSQL.insertDraft)
            defer { sqlite3_reset(insert) }
            try bindID(draftID, to: insert, at: 1)
            try bindID(itemID, to: insert, at: 2)
            try bindItem(copy, to: insert, at: 3)
            sqlite3_bind_text(insert, 10, isoNow(), -1, RawImplementation.transient)
            guard sqlite3_step(insert) == SQLITE_DONE else { throw failure() }
        }
        // 2. Edit: read the draft, rename it.
        try transaction {
            _ = try readDraft(draftID)
            let rename = try prepared(SharedSQL.renameDraft)
            defer { sqlite3_reset(rename) }
            try bindID(draftID, to: rename, at: 1)
            sqlite3_bind_text(rename, 2, newName, -1, RawImplementation.transient)
            sqlite3_bind_text(rename, 3, isoNow(), -1, RawImplementation.transient)
            guard sqlite3_step(rename) == SQLITE_DONE else { throw failure() }
        }
        // 3. Save: read the draft, insert its item, delete the draft.
        try transaction {
            let item = try readDraft(draftID)
            let insert = try prepared(SharedSQL.insertItem)
            defer { sqlite3_reset(insert) }
            try bindItem(item, to: insert, at: 1)
            let now = isoNow()
            sqlite3_bind_text(insert, 8, now, -1, RawImplementation.transient)
            guard sqlite3_step(insert) == SQLITE_DONE else { throw failure() }
            let delete = try prepared(SharedSQL.deleteDraft)
            defer { sqlite3_reset(delete) }
            try bindID(draftID, to: delete, at: 1)
            guard sqlite3_step(delete) == SQLITE_DONE else { throw failure() }
        }
    }

    // MARK: Helpers

    private func readDraft(_ id: UUID) throws -> Item {
        let select = try prepared(SharedSQL.selectDraft)
        defer { sqlite3_reset(select) }
        try bindID(id, to: select, at: 1)
        guard sqlite3_step(select) == SQLITE_ROW else { throw failure() }
        return try decodeItem(select, at: 3)
    }

    private func transaction(_ body: () throws -> Void) throws {
        try exec("BEGIN IMMEDIATE")
        do {
            try body()
            try exec("COMMIT")
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    @inline(__always)
    func bindItem(_ item: Item, to statement: OpaquePointer, at first: Int32) throws {
        try bindID(item.id, to: statement, at: first)
        var name = item.name
        name.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { text in
                sqlite3_bind_text(statement, first + 1, text.baseAddress, Int32(text.count), RawImplementation.transient)
            }
        }
        if let color = item.color {
            RawImplementation.bindStatic(RawImplementation.colorText(color), to: statement, at: first + 2)
        } else {
            sqlite3_bind_null(statement, first + 2)
        }
        switch item.status {
        case .inStock(let quantity):
            RawImplementation.bindStatic("in_stock", to: statement, at: first + 3)
            sqlite3_bind_int64(statement, first + 4, Int64(quantity))
            sqlite3_bind_null(statement, first + 5)
        case .outOfStock(let isOnBackOrder):
            RawImplementation.bindStatic("out_of_stock", to: statement, at: first + 3)
            sqlite3_bind_null(statement, first + 4)
            sqlite3_bind_int64(statement, first + 5, isOnBackOrder ? 1 : 0)
        }
        if var location = item.location?.text {
            location.withUTF8 { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { text in
                    sqlite3_bind_text(statement, first + 6, text.baseAddress, Int32(text.count), RawImplementation.transient)
                }
            }
        } else {
            sqlite3_bind_null(statement, first + 6)
        }
    }

    /// Formats the id into a stack buffer and binds it: no String is made.
    @inline(__always)
    func bindID(_ id: UUID, to statement: OpaquePointer, at index: Int32) throws {
        var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { text in
            withUnsafeBytes(of: id.uuid) { raw in
                let hex = RawImplementation.hexDigits
                var out = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 { text[out] = UInt8(ascii: "-"); out += 1 }
                    text[out] = RawImplementation.hexDigit(hex, raw[index] >> 4)
                    text[out + 1] = RawImplementation.hexDigit(hex, raw[index] & 0x0F)
                    out += 2
                }
            }
            _ = sqlite3_bind_text(statement, index, text.baseAddress!.assumingMemoryBound(to: CChar.self), 36, RawImplementation.transient)
        }
    }

    @inline(__always)
    private static func hexDigit(_ digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8), _ value: UInt8) -> UInt8 {
        value < 10 ? 48 + value : 87 + value
    }

    @inline(__always)
    private func decodeItem(_ statement: OpaquePointer, at first: Int32) throws -> Item {
        let idBytes = UnsafeBufferPointer(start: sqlite3_column_text(statement, first), count: Int(sqlite3_column_bytes(statement, first)))
        guard let id = UUID(canonicalUTF8: idBytes) else { throw failure() }
        let nameBytes = UnsafeBufferPointer(start: sqlite3_column_text(statement, first + 1), count: Int(sqlite3_column_bytes(statement, first + 1)))
        let name = String(decoding: nameBytes, as: UTF8.self)
        var color: Color?
        if sqlite3_column_type(statement, first + 2) != SQLITE_NULL {
            let bytes = UnsafeBufferPointer(start: sqlite3_column_text(statement, first + 2), count: Int(sqlite3_column_bytes(statement, first + 2)))
            color = RawImplementation.color(bytes)
        }
        let status: Status
        if sqlite3_column_bytes(statement, first + 3) == 8 {
            status = .inStock(quantity: Int(sqlite3_column_int64(statement, first + 4)))
        } else {
            status = .outOfStock(isOnBackOrder: sqlite3_column_int64(statement, first + 5) == 1)
        }
        var location: ItemLocation?
        if sqlite3_column_type(statement, first + 6) != SQLITE_NULL {
            let bytes = UnsafeBufferPointer(start: sqlite3_column_text(statement, first + 6), count: Int(sqlite3_column_bytes(statement, first + 6)))
            location = ItemLocation(stored: String(decoding: bytes, as: UTF8.self))
        }
        return Item(id: id, name: name, color: color, status: status, location: location)
    }

    static func colorText(_ color: Color) -> StaticString {
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
    private static func bindStatic(_ text: StaticString, to statement: OpaquePointer, at index: Int32) {
        sqlite3_bind_text(statement, index, UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self),
                          Int32(text.utf8CodeUnitCount), staticText)
    }

    static func color(_ bytes: UnsafeBufferPointer<UInt8>) -> Color? {
        switch (bytes.count, bytes.first) {
        case (5, UInt8(ascii: "b")): .black
        case (4, UInt8(ascii: "b")): .blue
        case (5, UInt8(ascii: "g")): .green
        case (3, UInt8(ascii: "r")): .red
        case (5, UInt8(ascii: "w")): .white
        case (6, UInt8(ascii: "y")): .yellow
        default: nil
        }
    }

    func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else { throw failure() }
        statements[sql] = statement
        return statement
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure() }
    }

    func failure() -> BenchmarkError {
        BenchmarkError(message: db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open")
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
