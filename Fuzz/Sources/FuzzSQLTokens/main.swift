import FuzzSupport
@testable import StockroomMigrations

// The migration SQL tokenizer (Sources/StockroomMigrations/SQLTokens.swift), which decides
// whether a database's schema matches the migrations, on any text. Properties, beyond not
// crashing:
// - the tokens concatenate back to the input: the input is, in order, each token's text
//   (a word in any letter case) with only whitespace and comments between them;
// - layout does not matter: the tokens joined by other whitespace and comments give the same
//   tokens again;
// - firstDifference agrees with the tokens: equal lists give equal excerpts.

// The model reads Unicode scalars, as the tokenizer (and SQLite) do, with its word rule.
func isWordCharacter(_ character: Unicode.Scalar) -> Bool { SQLTokens.isWordCharacter(character) }

/// Skips whitespace, `-- line` comments and `/* block */` comments from `index`.
func skipLayout(_ characters: [Unicode.Scalar], _ index: inout Int) {
    while index < characters.count {
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        if characters[index].properties.isWhitespace {
            index += 1
        } else if characters[index] == "-" && next == "-" {
            while index < characters.count && !SQLTokens.isNewline(characters[index]) { index += 1 }
        } else if characters[index] == "/" && next == "*" {
            index += 2
            while index < characters.count && !(characters[index] == "*" && index + 1 < characters.count && characters[index + 1] == "/") { index += 1 }
            index = min(index + 2, characters.count)
        } else {
            return
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSQLTokens(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let sql = String(decoding: bytes(data, size), as: UTF8.self)
    let tokens = SQLTokens.normalised(sql)

    let characters = Array(sql.unicodeScalars)
    var index = 0
    for token in tokens {
        skipLayout(characters, &index)
        require(!token.isEmpty && index < characters.count, "token \(token.debugDescription) at the end of \(sql.debugDescription)")
        if isWordCharacter(characters[index]) {
            var end = index
            while end < characters.count && isWordCharacter(characters[end]) { end += 1 }
            let word = SQLTokens.text(characters[index..<end])
            require(word.uppercased() == token, "word \(word.debugDescription) became \(token.debugDescription) in \(sql.debugDescription)")
            index = end
        } else {
            let expected = Array(token.unicodeScalars)
            let end = min(index + expected.count, characters.count)
            require(Array(characters[index..<end]) == expected,
                    "token \(token.debugDescription) is not the input's \(SQLTokens.text(characters[index..<end]).debugDescription) in \(sql.debugDescription)")
            index = end
        }
    }
    skipLayout(characters, &index)
    require(index == characters.count, "\(SQLTokens.text(characters[index...]).debugDescription) is left over from \(sql.debugDescription)")

    // An unterminated literal or comment runs to the end of the input, so it can only be
    // relaid as the last token; everything else must survive any layout.
    let relaid = tokens.joined(separator: " /* layout */\n\t")
    let again = SQLTokens.normalised(relaid)
    require(again == tokens, "\(sql.debugDescription) gives \(tokens), relaid as \(relaid.debugDescription) gives \(again)")

    let (left, right) = SQLTokens.firstDifference(tokens, again)
    require(left == right, "firstDifference of equal lists: \(left) vs \(right)")
    if !tokens.isEmpty {
        _ = SQLTokens.firstDifference(tokens, Array(tokens.dropLast()))
    }
    return 0
}

runFuzzer(fuzzSQLTokens)
