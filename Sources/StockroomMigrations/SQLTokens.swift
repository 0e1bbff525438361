/// Just enough of SQLite's lexical rules to compare two `CREATE` statements for meaning rather
/// than layout. Used only to compare schemas; nothing here decides what SQL may run.
enum SQLTokens {
    /// The tokens of `sql`: comments and whitespace dropped, string literals and quoted
    /// identifiers kept exactly, unquoted words and keywords uppercased (SQLite treats them
    /// case-insensitively), everything else one character per token.
    static func normalised(_ sql: String) -> [String] {
        var tokens: [String] = []
        let characters = Array(sql)
        var index = 0
        func upTo(_ end: Int) -> String { String(characters[index..<min(end, characters.count)]) }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character.isWhitespace {
                index += 1
            } else if character == "-" && next == "-" {
                while index < characters.count && !characters[index].isNewline { index += 1 }
            } else if character == "/" && next == "*" {
                var end = index + 2
                while end < characters.count && !(characters[end] == "*" && end + 1 < characters.count && characters[end + 1] == "/") { end += 1 }
                index = end + 2
            } else if let closing = closingQuote(for: character) {
                var end = index + 1
                while end < characters.count {
                    if characters[end] == closing {
                        // A doubled quote inside a literal stands for one quote character.
                        if closing != "]", end + 1 < characters.count, characters[end + 1] == closing { end += 2; continue }
                        break
                    }
                    end += 1
                }
                tokens.append(upTo(end + 1))
                index = end + 1
            } else if isWordCharacter(character) {
                var end = index
                while end < characters.count && isWordCharacter(characters[end]) { end += 1 }
                tokens.append(upTo(end).uppercased())
                index = end
            } else {
                tokens.append(String(character))
                index += 1
            }
        }
        return tokens
    }

    /// A few tokens around the first place where `expected` and `actual` part, from each side,
    /// so a message can show what changed without printing two whole tables.
    static func firstDifference(_ expected: [String], _ actual: [String]) -> (String, String) {
        let common = zip(expected, actual).prefix { $0 == $1 }.count
        func excerpt(_ tokens: [String]) -> String {
            let start = max(0, common - 4)
            let end = min(tokens.count, common + 6)
            let body = tokens[start..<end].map(shortened).joined(separator: " ")
            return (start > 0 ? "… " : "") + (body.isEmpty ? "(end)" : body) + (end < tokens.count ? " …" : "")
        }
        return (excerpt(expected), excerpt(actual))
    }

    /// A long literal (a GLOB pattern, say) cut to its start, so the excerpt stays readable.
    private static func shortened(_ token: String) -> String {
        token.count > 24 ? token.prefix(20) + "…" + String(token.last!) : token
    }

    private static func closingQuote(for character: Character) -> Character? {
        switch character {
        case "'": "'"
        case "\"": "\""
        case "`": "`"
        case "[": "]"
        default: nil
        }
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "$"
    }
}
