import FoundationEssentials

/// One table row as the sync protocol carries it: each column's value as text, or nil for
/// NULL, in the table's column order. Written and read by the same codecs that bind and read
/// the tables' statements (``ItemCodec``, ``DraftCodec``, the outbox's), so that the protocol
/// has no encoding of its own to keep in step with the schema: both ends are at the same
/// schema version, or the sync is refused before anything moves.
final class WireRow: ParameterSink, ColumnSource {
    private(set) var values: [String?]

    /// An empty row of `count` columns, to bind into.
    init(count: Int) { values = Array(repeating: nil, count: count) }

    /// A row received, to read from.
    init(values: [String?]) { self.values = values }

    // MARK: ParameterSink

    func bind(_ value: String, at index: Int) throws { try set(value, at: index) }
    func bind(_ value: Int, at index: Int) throws { try set(String(value), at: index) }
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws { try set(String(decoding: bytes, as: UTF8.self), at: index) }
    func bindStatic(_ value: StaticString, at index: Int) throws { try set(value.description, at: index) }
    func bindNull(at index: Int) throws { try set(nil, at: index) }

    private func set(_ value: String?, at index: Int) throws {
        while values.count <= index { values.append(nil) }
        values[index] = value
    }

    // MARK: ColumnSource

    var columnCount: Int { values.count }
    func columnName(at index: Int) -> String { "column \(index + 1)" }
    func isNull(at index: Int) -> Bool { value(at: index) == nil }
    func int(at index: Int) -> Int { optionalInt(at: index) ?? 0 }
    func optionalInt(at index: Int) -> Int? { value(at: index).flatMap { Int($0) } }
    func text(at index: Int) -> String { value(at: index) ?? "" }
    func optionalText(at index: Int) -> String? { value(at: index) }
    func withText<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        var text = value(at: index) ?? ""
        return try text.withUTF8(body)
    }
    func describeColumn(at index: Int) -> String {
        guard let value = value(at: index) else { return "NULL" }
        return Int(value) != nil ? value : "'\(value)'"
    }
    func fieldText(at index: Int) -> String { value(at: index) ?? "" }

    private func value(at index: Int) -> String? { index < values.count ? values[index] : nil }
}
