import Foundation

/// ISO-8601 UTC timestamps with milliseconds (`2026-11-22T15:04:05.123Z`), the form the schema's
/// CHECK constraints require. Formatted by hand: `ISO8601DateFormatter` costs microseconds a call.
enum Timestamp {
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let milliseconds = Int(spec.tv_nsec / 1_000_000)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var index = 0
            func put(_ value: Int, digits: Int) {
                var divisor = 1
                for _ in 1..<digits { divisor *= 10 }
                var remaining = value
                while divisor > 0 {
                    buffer[index] = UInt8(ascii: "0") + UInt8(remaining / divisor)
                    remaining %= divisor
                    divisor /= 10
                    index += 1
                }
            }
            func put(_ character: Unicode.Scalar) {
                buffer[index] = UInt8(ascii: character)
                index += 1
            }
            put(Int(parts.tm_year) + 1900, digits: 4); put("-")
            put(Int(parts.tm_mon) + 1, digits: 2); put("-")
            put(Int(parts.tm_mday), digits: 2); put("T")
            put(Int(parts.tm_hour), digits: 2); put(":")
            put(Int(parts.tm_min), digits: 2); put(":")
            put(Int(parts.tm_sec), digits: 2); put(".")
            put(milliseconds, digits: 3); put("Z")
            return index
        }
    }
}
