/// The values libpq checks only while it connects, checked before connecting.
///
/// `PQconninfoParse` accepts `postgresql://h:notaport/db` and `?sslmode=bogus`: it reads the
/// syntax, not the values. libpq then refuses them on the way to the server, with the same
/// "connection failed" status as a server that is down, and a program would tell the user to
/// try again later. Checked here, they are what they are: a connection string that is wrong.
/// The rules are libpq's own (fe-connect.c): a port is 1 to 65535, a timeout an integer, and
/// the enumerated settings take only their listed values.
enum ConnectionOptionValues {
    /// The first problem among `settings` (keyword, value as parsed), or nil when none.
    static func problem(in settings: [(keyword: String, value: String)]) -> String? {
        for (keyword, value) in settings {
            if let problem = problem(keyword: keyword, value: value) { return problem }
        }
        return nil
    }

    private static let enumerated: [String: [String]] = [
        "sslmode": ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"],
        "gssencmode": ["disable", "prefer", "require"],
        "channel_binding": ["disable", "prefer", "require"],
        "target_session_attrs": ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"],
    ]

    private static let integers: Set<String> = ["connect_timeout", "keepalives", "keepalives_idle",
                                                "keepalives_interval", "keepalives_count", "tcp_user_timeout"]

    private static func problem(keyword: String, value: String) -> String? {
        if keyword == "port" {
            // One port for all hosts, or one per host; an empty entry means the default.
            for port in value.split(separator: ",", omittingEmptySubsequences: false) {
                let text = trimmed(port)
                guard text.isEmpty || (Int(text).map { (1...65535).contains($0) } ?? false) else {
                    return "invalid port number \"\(port)\": a port is a number from 1 to 65535"
                }
            }
        } else if integers.contains(keyword) {
            let text = trimmed(Substring(value))
            guard text.isEmpty || Int(text) != nil else {
                return "invalid \(keyword) value \"\(value)\": a whole number is expected"
            }
        } else if let allowed = enumerated[keyword], !value.isEmpty, !allowed.contains(value) {
            return "invalid \(keyword) value \"\(value)\": one of \(allowed.joined(separator: ", ")) is expected"
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
