import FoundationEssentials
import Glibc
import Inventory

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

    /// The time `text` names, in the extended form ``now()`` writes (`2026-11-22T15:04:05.123Z`,
    /// any number of fraction digits or none), or nil when it is not that form.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Unicode.Scalar)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == UInt8(ascii: $0.1) }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, bytes.count <= 30, let digits = number(20..<(bytes.count - 1)) else { return nil }
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900); parts.tm_mon = Int32(month - 1); parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour); parts.tm_min = Int32(minute); parts.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: Double(timegm(&parts)) + fraction)
    }
}

extension RecordedItemEvent {
    /// `recordedAt` as a `Date`; nil only for a row written by hand in another form.
    ///
    /// `recordedAt` stays the text the database wrote (issue 37 asked why it is not a `Date`):
    /// it is the value itself, the same on both engines, printed and exported as it is, sorting
    /// as time does, with nothing lost to a `Double` of seconds. This reads it as a time.
    public var recordedDate: Date? { Timestamp.date(from: recordedAt) }
}
