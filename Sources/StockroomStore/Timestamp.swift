import FoundationEssentials
import Glibc

/// UTC timestamps, formatted by hand in one place (`ISO8601DateFormatter` costs microseconds a
/// call): the ISO 8601 extended form with milliseconds that the schema's CHECK constraints
/// require (`2026-11-22T15:04:05.123Z`), and the basic form for file names that sort by time
/// (`20261122T150405Z`).
public enum Timestamp {
    /// The current time, `2026-11-22T15:04:05.123Z`.
    public static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return format(seconds: spec.tv_sec, milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    /// `date` to the second, `20261122T150405Z` (ISO 8601 basic format), for file names.
    static func compact(_ date: Date) -> String {
        format(seconds: time_t(date.timeIntervalSince1970.rounded(.down)), milliseconds: nil)
    }

    /// The extended form with `milliseconds`, or the basic form to the second without.
    private static func format(seconds: time_t, milliseconds: Int?) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let extended = milliseconds != nil
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
            func put(_ character: Unicode.Scalar, always: Bool = false) {
                guard extended || always else { return }
                buffer[index] = UInt8(ascii: character)
                index += 1
            }
            put(Int(parts.tm_year) + 1900, digits: 4); put("-")
            put(Int(parts.tm_mon) + 1, digits: 2); put("-")
            put(Int(parts.tm_mday), digits: 2); put("T", always: true)
            put(Int(parts.tm_hour), digits: 2); put(":")
            put(Int(parts.tm_min), digits: 2); put(":")
            put(Int(parts.tm_sec), digits: 2)
            if let milliseconds { put("."); put(milliseconds, digits: 3) }
            put("Z", always: true)
            return index
        }
    }
}
