import Glibc

/// A number with a fixed count of decimals, as C's `printf("%.*f")` writes it: `fixed(2.25, 1)`
/// is "2.2" (the binary value is rounded exactly, ties to even).
///
/// The one place for what `String(format: "%.1f", x)` did: that initialiser lives in
/// Foundation's full module, whose static linking cost every `stockroom` start-up time even
/// when nothing was formatted (BENCHMARKS.md, "Start-up").
public func fixedPointText(_ value: Double, decimals: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let written = withVaList([Int32(decimals), value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
    guard written >= 0, Int(written) < buffer.count else { return String(value) }
    return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
