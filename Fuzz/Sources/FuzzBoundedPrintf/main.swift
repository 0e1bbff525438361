import CSQLite
import Foundation
import FuzzSupport
@testable import SQLiteCore

// The bounded printf()/format() of untrusted queries (Sources/SQLiteCore/BoundedPrintf.swift)
// with any format and arguments. Properties, beyond not crashing:
// - a value it returns is never longer than the connection's maximum value length, and is
//   exactly what SQLite's own printf returns for the same call under the same limit;
// - a call always ends quickly: a width or precision past the limit is refused before SQLite
//   builds it (SQLite's printf('%.*c', 2000000000, 'x') runs for seconds, uninterruptibly);
// - against a model of how SQLite's printf reads its format (printf.c: flags, width, `*`,
//   precision, `l`, and which conversions take an argument): when every width and precision
//   SQLite would use is within the limit, the call gives what SQLite's own printf gives (a
//   value, or too long); when one is past it, the call is refused.

let limit: Int32 = 4096
nonisolated(unsafe) let bounded = try! Database(path: ":memory:")
try! bounded.hardenForUntrustedQueries()
try! bounded.limitResources(QueryResourceLimits(maximumValueLength: limit, maximumMemory: 512 << 20, cacheSize: 1 << 20))
/// SQLite's own printf, under the same length limit.
nonisolated(unsafe) let plain = try! Database(path: ":memory:")
_ = sqlite3_limit(plain.handle, SQLITE_LIMIT_LENGTH, limit)

/// A call's result: the value, or SQLite's error code.
enum Outcome: Equatable {
    case value(SQLiteValue)
    case error(Int32)
}

func call(_ database: Database, _ function: String, _ arguments: [SQLiteValue]) -> Outcome {
    let sql = "SELECT \(function)(" + (1...arguments.count).map { "?\($0)" }.joined(separator: ", ") + ")"
    do {
        let statement = try database.prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return .value(.null) }
        return .value(statement.value(at: 0))
    } catch let error as SQLiteError {
        return .error(error.extendedCode & 0xFF)
    } catch {
        require(false, "unexpected error \(error)")
        fatalError()
    }
}

/// The largest width or precision SQLite's printf uses for `format`, reading each `*` from the
/// argument SQLite reads it from. Nil where the bounded version is knowingly more cautious than
/// SQLite, so the two need not agree: a `*` reading an argument that is not a whole number in
/// C's `int` range, a width of more than 9 digits (SQLite wraps them), and a conversion SQLite
/// does not know (it stops formatting there; the bounded version still refuses a large width
/// after it).
func sqliteLargestField(_ format: [UInt8], _ arguments: ArraySlice<SQLiteValue>) -> Int64? {
    let bytes = format.prefix { $0 != 0 } + [0] // SQLite sees a C string
    var largest: Int64 = 0
    var next = arguments.startIndex
    var index = 0
    func star() -> Int64? {
        defer { next += 1 }
        guard next < arguments.endIndex else { return 0 }
        switch arguments[next] {
        case .null: return 0
        case .integer(let value) where value > Int64(Int32.min) && value <= Int64(Int32.max): return abs(value)
        default: return nil
        }
    }
    func digits() -> Int64? {
        var value: Int64 = 0, count = 0
        while bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0")); count += 1; index += 1
            if count > 9 { return nil }
        }
        return value
    }
    while bytes[index] != 0 {
        guard bytes[index] == UInt8(ascii: "%") else { index += 1; continue }
        index += 1
        flags: while true {
            switch bytes[index] {
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: " "), UInt8(ascii: "#"), UInt8(ascii: "!"), UInt8(ascii: "0"), UInt8(ascii: ","):
                index += 1
            default: break flags
            }
        }
        if bytes[index] == UInt8(ascii: "*") {
            guard let width = star() else { return nil }
            largest = max(largest, width); index += 1
        } else {
            guard let width = digits() else { return nil }
            largest = max(largest, width)
        }
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            if bytes[index] == UInt8(ascii: "*") {
                guard let precision = star() else { return nil }
                largest = max(largest, precision); index += 1
            } else {
                guard let precision = digits() else { return nil }
                largest = max(largest, precision)
            }
        }
        // At most two: SQLite reads a third `l` as the conversion.
        for _ in 0..<2 where bytes[index] == UInt8(ascii: "l") { index += 1 }
        let conversion = bytes[index]
        switch conversion {
        case 0: return largest
        // No argument: a literal percent sign, and %n (which SQL's printf ignores).
        case UInt8(ascii: "%"), UInt8(ascii: "n"): break
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"),
             UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "f"), UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "c"),
             UInt8(ascii: "s"), UInt8(ascii: "z"), UInt8(ascii: "q"), UInt8(ascii: "Q"), UInt8(ascii: "w"), UInt8(ascii: "p"), UInt8(ascii: "r"):
            next += 1
        // Anything else ends SQLite's formatting there.
        default: return nil
        }
        index += 1
    }
    return largest
}

/// CPU time this thread has used, in seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Reads the arguments from the input: a count, then per argument a type and its bytes.
struct Reader {
    var bytes: ArraySlice<UInt8>
    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }
    mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return Int64(bitPattern: value)
    }
    mutating func argument() -> SQLiteValue {
        switch byte() % 5 {
        case 0: return .null
        case 1: return .integer(int64())
        case 2: return .integer(Int64(Int8(bitPattern: byte()))) // small numbers are likelier widths
        case 3: return .real(Double(bitPattern: UInt64(bitPattern: int64())))
        default:
            let count = Int(byte() % 32)
            let text = bytes.prefix(count)
            bytes = bytes.dropFirst(count)
            return .text(String(decoding: text, as: UTF8.self))
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBoundedPrintf(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var reader = Reader(bytes: bytes(data, size)[...])
    let count = Int(reader.byte() % 6)
    var arguments = (0..<count).map { _ in reader.argument() }
    // The rest is the format, the first argument.
    arguments.insert(.text(String(decoding: reader.bytes, as: UTF8.self)), at: 0)
    for function in ["printf", "format"] {
        // CPU time, not wall-clock time: on a busy machine the process may wait its turn for
        // seconds, but only a call that builds a huge value computes for long.
        let started = threadCPUSeconds()
        let outcome = call(bounded, function, arguments)
        let seconds = threadCPUSeconds() - started
        require(seconds < 2, "\(function)\(arguments) computed for \(seconds) s")
        switch outcome {
        case .value(let value):
            if case .text(let text) = value {
                require(text.utf8.count <= limit, "\(function)\(arguments) returned \(text.utf8.count) bytes, past the limit")
            }
            // SQLite's own run of a call the bounded one accepted is as quick as the helper's was.
            let reference = call(plain, function, arguments)
            require(reference == outcome, "\(function)\(arguments) gives \(outcome), SQLite's own \(reference)")
        case .error(let code):
            require(code == SQLITE_TOOBIG || code == SQLITE_NOMEM || code == SQLITE_ERROR, "\(function)\(arguments) failed with \(code)")
        }
        guard case .text(let format) = arguments[0], let largest = sqliteLargestField(Array(format.utf8), arguments.dropFirst()) else { continue }
        if largest > Int64(limit) {
            require(outcome == .error(SQLITE_TOOBIG), "\(function)\(arguments): SQLite would build a field of \(largest), yet \(outcome)")
        } else {
            // SQLite's own printf is quick here; a value past the limit is NULL, which the
            // bounded version reports as too long.
            var reference = call(plain, function, arguments)
            if reference == .value(.null) { reference = .error(SQLITE_TOOBIG) }
            require(reference == outcome, "\(function)\(arguments) gives \(outcome), SQLite's own \(reference) (largest field \(largest))")
        }
    }
    return 0
}

runFuzzer(fuzzBoundedPrintf)
