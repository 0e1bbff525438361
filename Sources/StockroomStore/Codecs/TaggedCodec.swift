// How the domain's enums meet their tagged columns. Each enum with associated values has one
// codec: a `Tag` enum naming its cases (switched exhaustively, so a new case is a compile error
// in the codec), its tag column and payload columns, and the two conversions. The domain enum is
// switched exhaustively elsewhere too (presentation, import, export, the wizard): docs/adding-a-status.md
// lists every file a new `Status` case touches.
// Column lists, placeholders and bind positions are derived from `columns`, never counted by
// hand. The CHECK constraints in Migrations/ are the same rules seen from SQL.
//
// Codecs are caseless enums with static, `@inline(__always)` members called on the concrete
// type: the protocol only states the shape and derives column names once, so binding a row costs
// what hand-written binding costs (see BENCHMARKS.md, W1 and W2).

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

extension TaggedCodec where Tag: RawRepresentable, Tag.RawValue == UInt8 {
    /// The tag spelled by `bytes` (a tag column's text), nil for none.
    @inline(__always)
    static func tag(matching bytes: UnsafeBufferPointer<UInt8>) -> Tag? {
        firstTag { ColumnText.equals(bytes, text(for: $0)) }
    }

    /// The first tag, in declaration order, for which `matches` is true; nil for none.
    ///
    /// Walks the raw values 0, 1, … until `Tag(rawValue:)` says there is no such case, so every
    /// case is tried without naming any (a new case is matched without an edit here), and
    /// nothing is allocated: `Tag.allCases` would build an array on each call, that is, for
    /// each row read. The tags' raw values are the implicit 0, 1, 2, ….
    @inline(__always)
    static func firstTag(where matches: (Tag) -> Bool) -> Tag? {
        var raw: Tag.RawValue = 0
        while let tag = Tag(rawValue: raw) {
            if matches(tag) { return tag }
            raw += 1
        }
        return nil
    }
}
