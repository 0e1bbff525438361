import CSQLite
import Foundation
import FuzzSupport
@testable import SQLiteCore

// The bounded printf()/format() of untrusted queries (Sources/SQLiteCore/BoundedPrintf.swift)
// with any format and arguments. Properties, beyond not crashing:
// - a value it returns is never longer than the connection's maximum value length, and is
//   exactly what SQLite's own printf returns for the same call under the same limit;
// - a call always ends quickly: a width or precision past the limit is refused before SQLite
//   builds it (SQLite's printf('%.*c', 2000000000, 'x') runs for seconds, uninterruptibly).

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
    }
    return 0
}

runFuzzer(fuzzBoundedPrintf)
