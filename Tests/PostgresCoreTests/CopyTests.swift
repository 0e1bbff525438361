import Foundation
import PostgresCore
import StockroomTestSupport
import Testing

/// COPY ... FROM STDIN loads many rows, escapes every value, and loads nothing on failure.
@Suite struct CopyTests {
    let schema: TestSchema
    init() throws { schema = try TestSchema() }

    @Test func copiesAHundredThousandRows() throws {
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, quantity integer NULL)")
        let loaded = try connection.copyIn("COPY t (id, name, quantity) FROM STDIN") { writer in
            for id in 1...100_000 {
                try writer.writeRow(id, "item \(id)", id % 10 == 0 ? nil : Int?.some(id % 7 + 1))
            }
            #expect(writer.rowCount == 100_000)
        }
        #expect(loaded == 100_000)
        let summary = try connection.query("SELECT count(*), sum(id), count(quantity), max(name) FROM t")[0]
        #expect(try summary.get(Int.self, at: 0) == 100_000)
        #expect(try summary.get(Int.self, at: 1) == 100_000 * 100_001 / 2)
        #expect(try summary.get(Int.self, at: 2) == 90_000)
        #expect(try summary.get(String.self, at: 3) == "item 99999")
    }

    @Test func escapesTabsLineBreaksBackslashesAndNulls() throws {
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (n integer, value text)")
        let values: [String?] = ["tab\there", "line\nbreak\r\n", "back\\slash \\N \\.", nil, "", "ünïcödé ✓"]
        try connection.copyIn("COPY t FROM STDIN") { writer in
            for (n, value) in values.enumerated() { try writer.writeRow([String(n), value]) }
        }
        let back = try connection.query("SELECT value FROM t ORDER BY n").map { try $0.get(String?.self, at: 0) }
        #expect(back == values)
    }

    @Test func escapesASpecialCharacterAtEveryPositionOfAWord() throws {
        // The writer checks eight bytes at a time: each character that needs an escape, at each
        // position of the first two words and of the tail after them, arrives as it was sent.
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (n integer, value text)")
        var values: [String] = []
        for special in ["\t", "\n", "\r", "\\"] {
            for position in 0..<19 {
                var characters = Array(repeating: Character("x"), count: 19)
                characters[position] = Character(special)
                values.append(String(characters))
            }
        }
        values.append("é\u{0B}\u{0C}\u{01}~]\u{7F}ÿ")  // near misses: no escape, sent as they are
        try connection.copyIn("COPY t FROM STDIN") { writer in
            for (n, value) in values.enumerated() { try writer.writeRow([String(n), value]) }
        }
        let back = try connection.query("SELECT value FROM t ORDER BY n").map { try $0.get(String.self, at: 0) }
        #expect(back == values)
    }

    @Test func writesIntegerFieldsInDecimal() throws {
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (n integer, value bigint)")
        let values = [0, 7, 10, 99, 100, -1, -42, 1_234_567_890_123, Int.max, Int.min]
        try connection.copyIn("COPY t FROM STDIN") { writer in
            for (n, value) in values.enumerated() {
                writer.writeField(n)
                writer.writeField(value)
                try writer.endRow()
            }
        }
        let back = try connection.query("SELECT value FROM t ORDER BY n").map { try $0.get(Int.self, at: 0) }
        #expect(back == values)
    }

    @Test func aFieldLargerThanTheBufferArrivesWhole() throws {
        // Several megabytes of escapes in one field: the buffer (a quarter of a megabyte) grows.
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (n integer, value text)")
        let large = String(repeating: "a\tb\\c\n", count: 500_000)
        try connection.copyIn("COPY t FROM STDIN") { writer in
            try writer.writeRow(["1", "before"])
            try writer.writeRow(["2", large])
            try writer.writeRow(["3", "after"])
        }
        let back = try connection.query("SELECT value FROM t ORDER BY n").map { try $0.get(String.self, at: 0) }
        #expect(back == ["before", large, "after"])
    }

    @Test func aRowBreakingACheckLoadsNothing() throws {
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (quantity integer CONSTRAINT positive CHECK (quantity >= 1))")
        let error = try #require(throws: PostgresError.self) {
            try connection.copyIn("COPY t FROM STDIN") { writer in
                for quantity in [3, 2, 1, 0, 5] { try writer.writeRow(quantity) }
            }
        }
        #expect(error.kind == .constraintViolation)
        #expect(error.constraintName == "positive")
        #expect(try connection.query("SELECT count(*) FROM t").scalar(Int.self) == 0)
    }

    @Test func aThrowingWriterAbandonsTheCopyAndTheConnectionStaysUsable() throws {
        struct Stop: Error {}
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (n integer)")
        #expect(throws: Stop.self) {
            try connection.copyIn("COPY t FROM STDIN") { writer in
                for n in 1...1000 { try writer.writeRow(n) }
                throw Stop()
            }
        }
        #expect(try connection.query("SELECT count(*) FROM t").scalar(Int.self) == 0)
        #expect(connection.transactionState == .idle)
    }
}

/// COPY ... TO STDOUT streams every row, undoes every escape of the text format, tells NULL
/// from the text `\N`, and leaves the connection usable when the reader stops.
@Suite struct CopyOutTests {
    let schema: TestSchema
    init() throws { schema = try TestSchema() }

    /// The rows of `table` as `copyOut` gives them: each field's text, nil for NULL.
    static func rows(_ connection: Connection, _ sql: String) throws -> [[String?]] {
        var rows: [[String?]] = []
        try connection.copyOut(sql) { row in
            var fields: [String?] = []
            row.forEachField { field in fields.append(field.map { String(decoding: $0, as: UTF8.self) }) }
            rows.append(fields)
        }
        return rows
    }

    @Test func everyValueComesBackAsItWasStoredAndNullApartFromItsSpelling() throws {
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (n integer, value text, quantity bigint)")
        // Every character COPY's text format escapes (\b \f \n \r \t \v and the backslash),
        // the spelling of NULL as text, an empty text, and text that needs no escape.
        let values: [String?] = ["tab\there", "line\nbreak\r\n", "back\\slash \\N \\.", nil, "", "\\N",
                                 "\u{08}\u{0C}\u{0B}\u{01}", "ünïcödé ✓", "\t", "end\\"]
        try connection.copyIn("COPY t FROM STDIN") { writer in
            for (n, value) in values.enumerated() { try writer.writeRow([String(n), value, n % 2 == 0 ? String(-n * 1_000_000_007) : nil]) }
        }
        let rows = try CopyOutTests.rows(connection, "COPY (SELECT n, value, quantity FROM t ORDER BY n) TO STDOUT")
        #expect(rows.map { $0[1] } == values)
        #expect(rows.map { $0[0] } == values.indices.map { String($0) })
        #expect(rows.map { $0[2] } == values.indices.map { $0 % 2 == 0 ? String(-$0 * 1_000_000_007) : nil })
    }

    @Test func streamsAHundredThousandRowsAndCountsThem() throws {
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t AS SELECT i AS id, 'item ' || i AS name FROM generate_series(1, 100000) AS i")
        var sum = 0, rows = 0
        let sent = try connection.copyOut("COPY t (id, name) TO STDOUT") { row in
            var column = 0
            row.forEachField { field in
                if column == 0 { sum += Int(String(decoding: field!, as: UTF8.self))! }
                column += 1
            }
            rows += 1
        }
        #expect(sent == 100_000 && rows == 100_000)
        #expect(sum == 100_000 * 100_001 / 2)
    }

    @Test func aReaderThatThrowsStopsTheCopyAndTheConnectionStaysUsable() throws {
        struct Stop: Error {}
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t AS SELECT i AS id FROM generate_series(1, 1000) AS i")
        var seen = 0
        #expect(throws: Stop.self) {
            try connection.copyOut("COPY t TO STDOUT") { _ in
                seen += 1
                if seen == 10 { throw Stop() }
            }
        }
        #expect(seen == 10, "no row after the one that threw")
        #expect(try connection.query("SELECT count(*) FROM t")[0].get(Int.self, at: 0) == 1000)
        #expect(throws: PostgresError.self) { try connection.copyOut("SELECT 1") { _ in } }
        #expect(try connection.query("SELECT 2")[0].get(Int.self, at: 0) == 2)
    }
}
