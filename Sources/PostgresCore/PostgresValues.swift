import FoundationEssentials
import Glibc

/// A Swift value sent as a statement parameter in PostgreSQL's text format.
///
/// Parameters travel separately from the SQL (`$1`, `$2`, ...), so no value is ever spliced
/// into a statement, and the server infers each parameter's type from where it is used. `nil`
/// (an `Optional` holding nothing) is sent as SQL NULL.
public protocol PostgresParameter {
    /// The value's text form as PostgreSQL reads it, or nil for NULL.
    var postgresText: String? { get }
}

/// A Swift type read from a result column in PostgreSQL's text format.
///
/// Non-optional types refuse NULL; `Optional` of a decodable type reads NULL as `nil`.
public protocol PostgresDecodable {
    /// Reads the value from its text form (`nil` for NULL), or throws ``PostgresError`` of kind
    /// ``PostgresError/Kind/unexpectedValue``.
    static func decode(postgresText text: String?) throws -> Self
}

extension String: PostgresParameter, PostgresDecodable {
    /// The string itself.
    public var postgresText: String? { self }
    /// The column's text.
    public static func decode(postgresText text: String?) throws -> String {
        guard let text else { throw PostgresValueError.null(String.self) }
        return text
    }
}

extension Int: PostgresParameter, PostgresDecodable {
    /// Decimal digits.
    public var postgresText: String? { String(self) }
    /// Reads `smallint`, `integer` and `bigint` text.
    public static func decode(postgresText text: String?) throws -> Int {
        guard let text else { throw PostgresValueError.null(Int.self) }
        guard let value = Int(text) else { throw PostgresValueError.unparsable(text, Int.self) }
        return value
    }
}

extension Int64: PostgresParameter, PostgresDecodable {
    /// Decimal digits.
    public var postgresText: String? { String(self) }
    /// Reads `bigint` text.
    public static func decode(postgresText text: String?) throws -> Int64 {
        guard let text else { throw PostgresValueError.null(Int64.self) }
        guard let value = Int64(text) else { throw PostgresValueError.unparsable(text, Int64.self) }
        return value
    }
}

extension Double: PostgresParameter, PostgresDecodable {
    /// The shortest text that reads back as the same number; `Infinity`, `-Infinity`, `NaN`.
    public var postgresText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return String(self)
    }
    /// Reads `real`, `double precision` and `numeric` text.
    public static func decode(postgresText text: String?) throws -> Double {
        guard let text else { throw PostgresValueError.null(Double.self) }
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default:
            guard let value = Double(text) else { throw PostgresValueError.unparsable(text, Double.self) }
            return value
        }
    }
}

extension Bool: PostgresParameter, PostgresDecodable {
    /// `true` or `false`.
    public var postgresText: String? { self ? "true" : "false" }
    /// Reads `boolean` text, which the server sends as `t` or `f`.
    public static func decode(postgresText text: String?) throws -> Bool {
        switch text {
        case "t": return true
        case "f": return false
        case nil: throw PostgresValueError.null(Bool.self)
        case let text?: throw PostgresValueError.unparsable(text, Bool.self)
        }
    }
}

extension UUID: PostgresParameter, PostgresDecodable {
    /// Lowercase canonical text, as the `uuid` type prints it.
    public var postgresText: String? { uuidString.lowercased() }
    /// Reads `uuid` text (or a `text` column holding one).
    public static func decode(postgresText text: String?) throws -> UUID {
        guard let text else { throw PostgresValueError.null(UUID.self) }
        guard let value = UUID(uuidString: text) else { throw PostgresValueError.unparsable(text, UUID.self) }
        return value
    }
}

extension Optional: PostgresParameter where Wrapped: PostgresParameter {
    /// The wrapped value's text, or nil (SQL NULL).
    public var postgresText: String? { self?.postgresText ?? nil }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    /// nil for NULL, otherwise the wrapped type's reading of the text.
    public static func decode(postgresText text: String?) throws -> Wrapped? {
        guard let text else { return nil }
        return try Wrapped.decode(postgresText: text)
    }
}

/// Builds the errors a failed decoding throws.
enum PostgresValueError {
    static func null(_ type: Any.Type) -> PostgresError {
        PostgresError(kind: .unexpectedValue, message: "expected \(type), found NULL")
    }

    static func unparsable(_ text: String, _ type: Any.Type) -> PostgresError {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return PostgresError(kind: .unexpectedValue, message: "expected \(type), found '\(shown)'")
    }
}
