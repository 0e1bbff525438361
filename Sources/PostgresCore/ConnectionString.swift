import FoundationEssentials
import Glibc

/// What Stockroom knows about a PostgreSQL connection string without asking libpq: whether a
/// `--db` value is one, and how to print it without its password.
///
/// libpq accepts two forms, and both pass through to it unchanged:
/// - URIs: `postgresql://user:secret@h1:5432,h2:5433/db?target_session_attrs=read-write&sslmode=require`
///   (or `postgres://`);
/// - keyword/value strings: `host=h1,h2 dbname=db password='s e c r e t'`.
///
/// A password can sit in three places: the URI's user information (`user:secret@`), a
/// `password=` query parameter, or a `password` keyword. ``redacted(_:)`` replaces each with
/// `***`; everything that prints a connection string prints it through that function.
public enum ConnectionString {
    /// What a redacted password reads as.
    public static let mask = "***"

    /// True for `postgresql://` and `postgres://` URIs (any letter case), the two prefixes libpq
    /// accepts; anything else given as `--db` is a SQLite path.
    public static func isPostgresURI(_ text: String) -> Bool {
        uriPrefixLength(text) != nil
    }

    /// `text` as libpq reads it: a URI's scheme in lower case. Schemes are case-insensitive
    /// (RFC 3986), and ``isPostgresURI(_:)`` takes `POSTGRESQL://` for a server, but libpq
    /// compares the prefix byte for byte and would read the rest as keyword/value pairs.
    static func normalizedForLibPQ(_ text: String) -> String {
        guard let prefix = uriPrefixLength(text) else { return text }
        return String(decoding: text.utf8.prefix(prefix), as: UTF8.self).lowercased()
            + String(decoding: text.utf8.dropFirst(prefix), as: UTF8.self)
    }

    /// `text` with every password replaced by `***`: in the URI's user information, in a
    /// `password=` query parameter, and in a keyword/value string's `password` keyword.
    ///
    /// `postgresql://user:secret@h/db` reads `postgresql://user:***@h/db`; a string that holds
    /// no password comes back unchanged.
    public static func redacted(_ text: String) -> String {
        scan(text).redacted
    }

    /// A URI with its password left out altogether (the user information's `:secret` and any
    /// `password=` parameter), for a URI that is remembered rather than printed: libpq then
    /// takes the password from `PGPASSWORD`, the passfile or a service. Any other string comes
    /// back as ``redacted(_:)`` reads it.
    ///
    /// `postgresql://user:secret@h/db?password=x&sslmode=require` reads
    /// `postgresql://user@h/db?sslmode=require`.
    public static func withoutPassword(_ text: String) -> String {
        guard let prefix = uriPrefixLength(text) else { return redacted(text) }
        var secrets: [String] = []
        return String(decoding: redactedURI(Array(text.utf8), schemeLength: prefix, secrets: &secrets, dropping: true),
                      as: UTF8.self)
    }

    /// The passwords written in `text`, both as written and percent-decoded.
    static func passwords(in text: String) -> [String] {
        scan(text).secrets.flatMap { secret in
            let decoded = secret.removingPercentEncodingLeniently() ?? secret
            return decoded == secret ? [secret] : [secret, decoded]
        }
    }

    private static func scan(_ text: String) -> (redacted: String, secrets: [String]) {
        var secrets: [String] = []
        let output: [UInt8]
        if let prefix = uriPrefixLength(text) {
            output = redactedURI(Array(text.utf8), schemeLength: prefix, secrets: &secrets)
        } else {
            output = redactedKeywordValues(Array(text.utf8), secrets: &secrets)
        }
        return (String(decoding: output, as: UTF8.self), secrets)
    }

    // MARK: URIs

    private static func uriPrefixLength(_ text: String) -> Int? {
        for scheme in ["postgresql://", "postgres://"] where text.utf8.count >= scheme.utf8.count {
            let head = String(decoding: text.utf8.prefix(scheme.utf8.count), as: UTF8.self)
            if head.lowercased() == scheme { return scheme.utf8.count }
        }
        return nil
    }

    /// Masks a URI's passwords where libpq finds them (its `conninfo_uri_parse_options`): the
    /// user information is everything before the first `@` that comes before any `/` (a `?` or
    /// `#` there is part of the password, not a query or fragment); the query starts at the
    /// first `?` after it; parameters are split at `&` only, as libpq has no fragment (a `#`
    /// is part of a value).
    /// The URI with each password masked, or with `dropping` left out (and its separator).
    private static func redactedURI(_ bytes: [UInt8], schemeLength: Int, secrets: inout [String],
                                    dropping: Bool = false) -> [UInt8] {
        var output = Array(bytes[..<schemeLength])
        var index = schemeLength
        while index < bytes.count, bytes[index] != UInt8(ascii: "@"), bytes[index] != UInt8(ascii: "/") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "@") {
            let firstAt = index
            // An `@` written unencoded in a password makes libpq read the rest as hosts: masked
            // too (up to the last `@` before the hosts end), as its writer meant it as password.
            var lastAt = firstAt
            var scan = firstAt + 1
            while scan < bytes.count, bytes[scan] != UInt8(ascii: "/"), bytes[scan] != UInt8(ascii: "?") {
                if bytes[scan] == UInt8(ascii: "@") { lastAt = scan }
                scan += 1
            }
            let userInfo = bytes[schemeLength..<lastAt]
            if let colon = userInfo.firstIndex(of: UInt8(ascii: ":")) {
                output += dropping ? bytes[schemeLength..<colon] : bytes[schemeLength...colon]
                if !dropping { output += Array(mask.utf8) }
                if colon < firstAt { secrets.append(String(decoding: bytes[(colon + 1)..<firstAt], as: UTF8.self)) }
                if lastAt != firstAt || colon > firstAt { secrets.append(String(decoding: bytes[(colon + 1)..<lastAt], as: UTF8.self)) }
            } else {
                output += userInfo
            }
            index = lastAt
        } else {
            index = schemeLength
        }
        // Hosts and path, then query parameters separated by '&', each `key=value`.
        while index < bytes.count, bytes[index] != UInt8(ascii: "?") {
            output.append(bytes[index]); index += 1
        }
        guard index < bytes.count else { return output }
        output.append(bytes[index]); index += 1
        var parameters = bytes[index...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
        if dropping {
            parameters.removeAll { parameter in
                guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")) else { return false }
                return isPasswordKeyword(String(decoding: parameter[..<equals], as: UTF8.self))
            }
            if parameters.isEmpty { output.removeLast() }
        }
        for (number, parameter) in parameters.enumerated() {
            if number > 0 { output.append(UInt8(ascii: "&")) }
            if let equals = parameter.firstIndex(of: UInt8(ascii: "=")),
               isPasswordKeyword(String(decoding: parameter[..<equals], as: UTF8.self)) {
                output += parameter[...equals]
                output += Array(mask.utf8)
                secrets.append(String(decoding: parameter[(equals + 1)...], as: UTF8.self))
            } else {
                output += parameter
            }
        }
        return output
    }

    private static func isPasswordKeyword(_ key: String) -> Bool {
        (key.removingPercentEncodingLeniently() ?? key).lowercased() == "password"
    }

    // MARK: Keyword/value strings

    /// Scans `key = value` pairs as libpq does (values unquoted up to whitespace, or single-quoted
    /// with backslash escapes) and masks the values of `password` keywords.
    private static func redactedKeywordValues(_ bytes: [UInt8], secrets: inout [String]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        while index < bytes.count {
            // Whitespace between pairs.
            while index < bytes.count, isSpace(bytes[index]) { output.append(bytes[index]); index += 1 }
            let keyStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), !isSpace(bytes[index]) { index += 1 }
            let key = String(decoding: bytes[keyStart..<index], as: UTF8.self)
            output += bytes[keyStart..<index]
            while index < bytes.count, isSpace(bytes[index]) { output.append(bytes[index]); index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
            output.append(bytes[index]); index += 1
            while index < bytes.count, isSpace(bytes[index]) { output.append(bytes[index]); index += 1 }
            let valueStart = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "'") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "'") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                index = min(index + 1, bytes.count)
            } else {
                while index < bytes.count, !isSpace(bytes[index]) {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                index = min(index, bytes.count)
            }
            if key.lowercased() == "password" {
                output += Array(mask.utf8)
                secrets.append(unquoted(bytes[valueStart..<index]))
            } else {
                output += bytes[valueStart..<index]
            }
        }
        return output
    }

    /// A keyword value as libpq reads it: without its quotes and backslash escapes.
    private static func unquoted(_ value: ArraySlice<UInt8>) -> String {
        var body = value
        if body.first == UInt8(ascii: "'") { body = body.dropFirst(); if body.last == UInt8(ascii: "'") { body = body.dropLast() } }
        var result: [UInt8] = []
        var escaped = false
        for byte in body {
            if !escaped, byte == UInt8(ascii: "\\") { escaped = true; continue }
            escaped = false
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension String {
    /// Percent-decoding that leaves invalid sequences as they are instead of failing.
    func removingPercentEncodingLeniently() -> String? {
        var bytes: [UInt8] = []
        let source = Array(utf8)
        var index = 0
        var changed = false
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
               let value = UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                bytes.append(value); index += 3; changed = true
            } else {
                bytes.append(source[index]); index += 1
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : self
    }

    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
