/// Just enough of SQLite's lexical rules to compare two `CREATE` statements for meaning rather
/// than layout. Used only to compare schemas; nothing here decides what SQL may run.
enum SQLTokens {
    /// The tokens of `sql`: comments and whitespace dropped, string literals and quoted
    /// identifiers kept exactly, unquoted words and keywords uppercased (SQLite treats them
    /// case-insensitively), everything else one character per token.
    ///
    /// Read by Unicode scalar, as SQLite reads SQL, not by Swift `Character`: a grapheme cluster
    /// can join a "prepend" mark (U+0601) to the space after it, and the space would stop being
    /// layout (found by the sql-tokens fuzz target).
    static func normalised(_ sql: String) -> [String] {
        var tokens: [String] = []
        let characters = Array(sql.unicodeScalars)
        var index = 0
        func upTo(_ end: Int) -> String { text(characters[index..<min(end, characters.count)]) }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character.properties.isWhitespace {
                index += 1
            } else if character == "-" && next == "-" {
                while index < characters.count && !isNewline(characters[index]) { index += 1 }
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

    /// The text of a run of scalars.
    static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// What ends a `-- line` comment: the scalars Swift's `Character.isNewline` names.
    static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
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

    private static func closingQuote(for character: Unicode.Scalar) -> Unicode.Scalar? {
        switch character {
        case "'": "'"
        case "\"": "\""
        case "`": "`"
        case "[": "]"
        default: nil
        }
    }

    /// Part of a word: an ASCII letter or digit, `_`, `$`, or, as SQLite has it, any character
    /// past ASCII (but the spaces, which are layout here). So a word stays one word once
    /// uppercased, whatever marks uppercasing adds (U+01F0 becomes J and U+030C).
    static func isWordCharacter(_ character: Unicode.Scalar) -> Bool {
        if character.isASCII {
            return (character.properties.isAlphabetic || ("0"..."9").contains(character)) || character == "_" || character == "$"
        }
        return !character.properties.isWhitespace
    }
}
