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
