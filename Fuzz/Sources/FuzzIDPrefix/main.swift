import Foundation
import FuzzSupport
import SQLiteCore
@testable import StockroomStore

// Id prefixes (Sources/StockroomStore/Repositories/IDPrefix.swift): what a user types for an
// id, resolved by a range scan on the primary key, against ids stored in a real SQLite table.
// Property: the answer is the one a naive scan gives — the text is refused unless it is 4 to
// 36 hex digits and hyphens (any letter case), or the short form lines print (issue 37: a
// start, "…" or "...", and an end of at least 4, together under 36); otherwise the ids that
// start (and end) with it in lower case decide: none is "not found", one is that id, more are
// "ambiguous", naming the first two.

nonisolated(unsafe) let database = try! Database(path: ":memory:")
try! database.execute("CREATE TABLE items (id TEXT NOT NULL PRIMARY KEY)")
// item_events holds an item's id once per event: the scan there must name each id once.
try! database.execute("CREATE TABLE item_events (item_id TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (item_id, version))")

/// What the naive scan expects for `text` among `ids`.
func naive(_ text: String, ids: Set<String>) -> Result<UUID, StoreError> {
    func allowed(_ part: Substring) -> Bool {
        part.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }
    let lowercased = text.lowercased()
    let prefix: Substring, suffix: Substring
    if let separator = lowercased.firstRange(of: "\u{2026}") ?? lowercased.firstRange(of: "...") {
        prefix = lowercased[..<separator.lowerBound]
        suffix = lowercased[separator.upperBound...]
        guard allowed(prefix), allowed(suffix), suffix.utf8.count >= 4, prefix.utf8.count + suffix.utf8.count < 36 else {
            return .failure(.malformedID(.item, text))
        }
    } else {
        prefix = lowercased[...]
        suffix = ""
        guard allowed(prefix), (4...36).contains(prefix.utf8.count) else { return .failure(.malformedID(.item, text)) }
    }
    let matches = ids.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
    switch matches.count {
    case 0: return .failure(.notFound(.item, text))
    case 1: return .success(UUID(uuidString: matches[0])!)
    default: return .failure(.ambiguousID(.item, text, matches: Array(matches.prefix(2))))
    }
}

func resolved(_ text: String, table: String, column: String) -> Result<UUID, StoreError> {
    do {
        return .success(try IDPrefix.resolve(text, in: table, column: column, record: .item, connection: database))
    } catch let error as StoreError {
        return .failure(error)
    } catch {
        require(false, "resolve threw \(error)")
        fatalError()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIDPrefix(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)
    guard let first = input.first else { return 0 }
    // The first byte says how many ids (0-7) follow, 16 bytes each; the rest is the text typed.
    let count = min(Int(first % 8), (input.count - 1) / 16)
    var ids = Set<String>()
    for index in 0..<count {
        let raw = Array(input[(1 + 16 * index)..<(1 + 16 * (index + 1))])
        let uuid = raw.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        ids.insert(UUID(uuid: uuid).lowercasedString)
    }
    let text = String(decoding: input[(1 + 16 * count)...], as: UTF8.self)

    try! database.execute("BEGIN")
    defer { try! database.execute("ROLLBACK") }
    for (number, id) in ids.enumerated() {
        try! database.execute("INSERT INTO items VALUES ('\(id)')")
        for version in 1...(1 + number % 3) { try! database.execute("INSERT INTO item_events VALUES ('\(id)', \(version))") }
    }
    let expected = naive(text, ids: ids)
    let fromItems = resolved(text, table: "items", column: "id")
    require(fromItems == expected, "\(text.debugDescription) among \(ids.sorted()): items gives \(fromItems), expected \(expected)")
    let fromEvents = resolved(text, table: "item_events", column: "item_id")
    require(fromEvents == expected, "\(text.debugDescription) among \(ids.sorted()): item_events gives \(fromEvents), expected \(expected)")
    return 0
}

runFuzzer(fuzzIDPrefix)
