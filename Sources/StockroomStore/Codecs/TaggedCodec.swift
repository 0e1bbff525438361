import FoundationEssentials
import Glibc

// How the domain's enums meet their tagged columns. Each enum with associated values has one
// codec: a `Tag` enum naming its cases (switched exhaustively, so a new case is a compile error
// in the codec), its tag column and payload columns, and the two conversions. The domain enum is
// switched exhaustively elsewhere too (presentation, import, export, the wizard): README,
// "Adding a status", lists every file a new `Status` case touches.
// Column lists, placeholders and bind positions are derived from `columns`, never counted by
// hand. The CHECK constraints in Migrations/ are the same rules seen from SQL.
//
// Codecs are caseless enums with static, `@inline(__always)` members called on the concrete
// type: the protocol only states the shape and derives column names once, so binding a row costs
// what hand-written binding costs (see BENCHMARKS.md, W1 and W2).

/// A column value that does not form a valid case; the repository adds which row it was.
struct ColumnDecodingError: Error {
    let reason: String
}

/// The storage of one tagged enum: a tag column plus one column per associated value.
protocol TaggedCodec {
    /// The Swift value stored.
    associatedtype Value
    /// The cases of `Value` as stored in the tag column.
    associatedtype Tag: CaseIterable

    /// The tag column's name (before any prefix).
    static var tagColumn: String { get }
    /// The payload columns' names, in bind order after the tag (before any prefix).
    static var payloadColumns: [String] { get }
    /// The text a tag is stored as.
    static func text(for tag: Tag) -> StaticString
    /// The case of `value`.
    static func tag(of value: Value) -> Tag
}

extension TaggedCodec {
    /// The tag column then the payload columns, each name preceded by `prefix`: the same codec
    /// stores a `Status` as `status, …` in `items` and as `from_status, …` in `item_events`.
    static func columns(prefix: String = "") -> [String] {
        ([tagColumn] + payloadColumns).map { prefix + $0 }
    }

    /// How many columns a value takes.
    static var columnCount: Int { 1 + payloadColumns.count }

    /// The tag whose text is `text`, nil for none.
    static func tag(named text: String) -> Tag? {
        Tag.allCases.first { String(describing: Self.text(for: $0)) == text }
    }

    /// Every tag's text as an SQL list, `'a', 'b'`, for messages.
    static var tagList: String {
        Tag.allCases.map { "'\(Self.text(for: $0))'" }.joined(separator: ", ")
    }

    /// The tag's text as an SQL string literal (tags never contain a quote).
    static func literal(_ tag: Tag) -> String { "'\(text(for: tag))'" }
}

/// An ordered list of columns built from codecs and plain columns, from which statements take
/// their column list, placeholders and each group's first bind position.
struct ColumnLayout {
    /// The columns, in bind order.
    private(set) var names: [String] = []

    /// Appends `columns` and returns the zero-based bind position of the first.
    mutating func add(_ columns: [String]) -> Int {
        defer { names += columns }
        return names.count
    }

    /// Appends one column and returns its bind position.
    mutating func add(_ column: String) -> Int { add([column]) }

    /// A layout of just `columns`.
    static func of(_ columns: [String]) -> ColumnLayout {
        var layout = ColumnLayout()
        _ = layout.add(columns)
        return layout
    }

    /// `a, b, c`.
    var list: String { names.joined(separator: ", ") }
    /// `?1, ?2, ?3`.
    var placeholders: String { names.indices.map { "?\($0 + 1)" }.joined(separator: ", ") }
    /// `a = ?1, b = ?2`, for an UPDATE.
    var assignments: String { assignments(skipping: nil) }

    /// `b = ?2, c = ?3`: the assignments of every column but `skipped` (the key of an UPDATE).
    func assignments(skipping skipped: String?) -> String {
        names.indices.filter { names[$0] != skipped }.map { "\(names[$0]) = ?\($0 + 1)" }.joined(separator: ", ")
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

/// Binds a row's values in column order, into any engine's statement (``ParameterSink``): each codec binds its columns one after the other and
/// the position advances by itself, so no bind index is ever written down.
struct RowBinder<Sink: ParameterSink> {
    let statement: Sink
    /// The zero-based position the next value binds to.
    private(set) var index: Int

    @inline(__always)
    init(_ statement: Sink, at index: Int = 0) {
        self.statement = statement
        self.index = index
    }

    @inline(__always) mutating func bind(_ value: String) throws { try statement.bind(value, at: index); index += 1 }
    @inline(__always) mutating func bind(_ value: Int) throws { try statement.bind(value, at: index); index += 1 }
    @inline(__always) mutating func bind(_ value: UUID) throws { try statement.bind(value, at: index); index += 1 }
    @inline(__always) mutating func bindText(_ bytes: UnsafeBufferPointer<UInt8>) throws { try statement.bindText(bytes, at: index); index += 1 }
    @inline(__always) mutating func bindStatic(_ value: StaticString) throws { try statement.bindStatic(value, at: index); index += 1 }

    /// Binds NULL to the next `count` columns (the columns of a case this value is not).
    @inline(__always) mutating func bindNulls(_ count: Int = 1) throws {
        for _ in 0..<count {
            try statement.bindNull(at: index)
            index += 1
        }
    }
}

/// Reads a row's columns in order from any engine's row (``ColumnSource``), the counterpart of
/// ``RowBinder``.
struct RowReader<Source: ColumnSource> {
    let statement: Source
    /// The zero-based column the next read takes.
    private(set) var index: Int

    @inline(__always)
    init(_ statement: Source, at index: Int = 0) {
        self.statement = statement
        self.index = index
    }

    /// Takes the next column and returns its position.
    @inline(__always) mutating func next() -> Int {
        defer { index += 1 }
        return index
    }

    /// Skips `count` columns.
    @inline(__always) mutating func skip(_ count: Int) { index += count }

    /// True when the next `count` columns, from the current one, are all NULL; takes nothing.
    @inline(__always) func areNull(_ count: Int) -> Bool {
        for offset in 0..<count where !statement.isNull(at: index + offset) { return false }
        return true
    }
}
