import FoundationEssentials

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
