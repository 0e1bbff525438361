import Glibc

/// Byte-level matching of column text, so decoding a tag allocates no `String`.
enum ColumnText {
    /// True when `bytes` spell exactly `text`.
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base, text.utf8Start, bytes.count) == 0
    }
}
