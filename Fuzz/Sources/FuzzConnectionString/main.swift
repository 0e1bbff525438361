import FuzzSupport
@testable import PostgresCore
@testable import StockroomStore

// Connection strings (Sources/PostgresCore/ConnectionString.swift) and `--db` values
// (Sources/StockroomStore/DatabaseLocation.swift), with libpq itself (its PQconninfoParse, no
// server) as the judge of where the password is. Properties, beyond not crashing:
// - whatever password libpq reads from the string is among `passwords(in:)`, so that
//   Connection can scrub it from libpq's messages;
// - the redacted string, read by libpq, does not hold that password;
// - redaction never depends on the password: a connection string built with one password
//   and with another redact to the same text, so no part of it can leak. (Redacting twice may
//   change more: `password='a'host=h` masks to `password=***host=h`, whose unquoted value
//   now runs on; the first redaction is the one that matters.)
// - a `--db` value is PostgreSQL exactly when it has a libpq URI prefix, and prints redacted.

nonisolated(unsafe) let libpq = try! PostgresClientLibrary.functions()

/// The password libpq reads from `text`; nil when libpq refuses the string or it has none.
func libpqPassword(_ text: String) -> String? {
    var error: UnsafeMutablePointer<CChar>?
    guard let options = libpq.PQconninfoParse(text, &error) else {
        libpq.PQfreemem(error)
        return nil
    }
    defer { libpq.PQconninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
        if String(cString: keyword) == "password", let value = option.pointee.val { return String(cString: value) }
        option += 1
    }
    return nil
}

/// Every byte but the unreserved ones percent-encoded, as a careful URI writer does.
func percentEncoded(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            text.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            text += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
        }
    }
    return text
}

/// A keyword value as libpq reads it: plain, or single-quoted with `\` escapes when needed.
func keywordValue(_ text: String) -> String {
    let plain = !text.isEmpty && !text.unicodeScalars.contains { $0 == "'" || $0 == "\\" || $0 == " " || (0x09...0x0D).contains($0.value) }
    if plain { return text }
    var quoted = "'"
    for scalar in text.unicodeScalars {
        if scalar == "'" || scalar == "\\" { quoted += "\\" }
        quoted.unicodeScalars.append(scalar)
    }
    return quoted + "'"
}

/// A connection string in one of the shapes libpq documents, from the input's parts, with
/// `password` where the shape puts it.
func built(_ parts: [[UInt8]], flags: UInt8, password: [UInt8]) -> String {
    func part(_ index: Int) -> [UInt8] { index < parts.count ? parts[index] : [] }
    let user = part(1), host = part(2), database = part(3), extra = part(4)
    if flags & 1 == 0 {
        var text = flags & 2 == 0 ? "postgresql://" : (flags & 4 == 0 ? "postgres://" : "PostgreSQL://")
        text += percentEncoded(user)
        if flags & 8 == 0 { text += ":" + percentEncoded(password) }
        text += "@" + percentEncoded(host) + "/" + percentEncoded(database)
        text += "?application_name=" + percentEncoded(extra)
        if flags & 8 != 0 {
            // The keyword itself may be percent-encoded too: libpq decodes keys.
            text += "&" + (flags & 16 == 0 ? "password" : "pass%77ord") + "=" + percentEncoded(password)
        }
        return text
    }
    let text = (String(validating: user, as: UTF8.self) ?? "u")
    let around = flags & 2 == 0 ? "" : " \t"
    return "host=" + keywordValue(String(decoding: host, as: UTF8.self)) + " user=" + keywordValue(text)
        + " password" + around + "=" + around + keywordValue(String(decoding: password, as: UTF8.self))
        + " dbname=" + keywordValue(String(decoding: database, as: UTF8.self))
}

func checkLibpqAgrees(_ text: String) {
    guard !text.utf8.contains(0) else { return } // libpq sees a C string
    if let password = libpqPassword(text), !password.isEmpty {
        let found = ConnectionString.passwords(in: text)
        require(found.contains(password), "libpq reads password \(password.debugDescription) from \(text.debugDescription); passwords(in:) finds \(found)")
        let redacted = ConnectionString.redacted(text)
        let left = libpqPassword(redacted)
        require(left != password,
                "\(text.debugDescription) redacts to \(redacted.debugDescription), where libpq reads password \(String(describing: left).debugDescription)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConnectionString(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)

    // 1. The input as it is.
    let text = String(decoding: input, as: UTF8.self)
    let redacted = ConnectionString.redacted(text)
    let location = DatabaseLocation(text)
    // Byte by byte, as libpq compares the scheme: a combining mark after "//" makes the last
    // Character "/\u{06DB}", so String.hasPrefix would say no while libpq (and Stockroom) say yes.
    let lowered = text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    let isURI = lowered.starts(with: "postgresql://".utf8) || lowered.starts(with: "postgres://".utf8)
    switch location {
    case .postgres(let uri):
        require(isURI && uri == text && location.description == redacted, "--db \(text.debugDescription) read as \(location)")
    case .file(let path):
        require(!isURI && path == text && location.description == text, "--db \(text.debugDescription) read as a file")
    }
    checkLibpqAgrees(text)

    // 2. The input's parts (split at 0xFF) as a connection string of a documented shape.
    let parts = input.split(separator: 0xFF, omittingEmptySubsequences: false).map(Array.init)
    let flags = parts.first?.first ?? 0
    let password = parts.count > 5 ? parts[5] : Array("s3cret".utf8)
    guard !password.isEmpty else { return 0 }
    let one = built(parts, flags: flags, password: password)
    let other = built(parts, flags: flags, password: Array("another password".utf8))
    require(ConnectionString.redacted(one) == ConnectionString.redacted(other),
            "the redaction depends on the password: \(ConnectionString.redacted(one).debugDescription) vs \(ConnectionString.redacted(other).debugDescription)")
    checkLibpqAgrees(one)
    if !one.utf8.contains(0), let libpqReads = libpqPassword(one) {
        require(libpqReads == String(decoding: password, as: UTF8.self), "\(one.debugDescription) is not built as meant: libpq reads \(libpqReads.debugDescription)")
    }
    return 0
}

runFuzzer(fuzzConnectionString)
