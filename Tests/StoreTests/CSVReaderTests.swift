import Foundation
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// The hand-written RFC 4180 reader, one feature at a time, reading real files.
@Suite struct CSVReaderTests {
    /// Every record of `bytes` as field strings with its start line, read in chunks of
    /// `chunkSize` so records and quotes straddle chunk boundaries.
    func records(_ bytes: [UInt8], chunkSize: Int = 3) throws -> [(line: Int, fields: [String])] {
        let directory = TemporaryDirectory()
        let path = directory.path("input.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let reader = CSVReader(input: ByteInput(descriptor: descriptor, chunkSize: chunkSize))
        var found: [(Int, [String])] = []
        while try reader.next() {
            found.append((reader.recordLine, (0..<reader.fieldCount).map { index in
                reader.withField(index) { String(decoding: $0, as: UTF8.self) }
            }))
        }
        return found
    }

    func records(_ text: String, chunkSize: Int = 3) throws -> [(line: Int, fields: [String])] {
        try records(Array(text.utf8), chunkSize: chunkSize)
    }

    @Test func plainFieldsAndEmptyFields() throws {
        let found = try records("a,b,c\n1,,3\n")
        #expect(found.map(\.fields) == [["a", "b", "c"], ["1", "", "3"]])
        #expect(found.map(\.line) == [1, 2])
    }

    @Test func quotedFieldsWithCommasAndDoubledQuotes() throws {
        let found = try records("\"a,b\",\"say \"\"hi\"\"\",\"\"\n")
        #expect(found.map(\.fields) == [["a,b", "say \"hi\"", ""]])
    }

    @Test func lineBreaksInsideQuotesAreDataAndCountAsLines() throws {
        let found = try records("name,x\n\"two\nlines\",1\r\n\"three\r\nlines\nhere\",2\nlast,3\n")
        #expect(found.map(\.fields) == [["name", "x"], ["two\nlines", "1"], ["three\r\nlines\nhere", "2"], ["last", "3"]])
        #expect(found.map(\.line) == [1, 2, 4, 7])
    }

    @Test func crlfEndsRecordsAndALoneCarriageReturnIsData() throws {
        let found = try records("a,b\r\n1,2\r\n3\r4,5\r\n")
        #expect(found.map(\.fields) == [["a", "b"], ["1", "2"], ["3\r4", "5"]])
    }

    @Test func aLeadingByteOrderMarkIsSkipped() throws {
        let found = try records([0xEF, 0xBB, 0xBF] + Array("id,name\n1,x\n".utf8), chunkSize: 4)
        #expect(found.map(\.fields) == [["id", "name"], ["1", "x"]])
    }

    /// Found by the csv-reader fuzz target: a mark split across two reads (a pipe, or a chunk
    /// ending inside it) was kept as data, so the header's first column was "\u{FEFF}id".
    @Test(arguments: [1, 2]) func aByteOrderMarkSplitAcrossReadsIsSkipped(chunkSize: Int) throws {
        let found = try records([0xEF, 0xBB, 0xBF] + Array("id,name\n1,x\n".utf8), chunkSize: chunkSize)
        #expect(found.map(\.fields) == [["id", "name"], ["1", "x"]])
    }

    @Test(arguments: [1, 2, 4]) func bytesThatStartLikeAByteOrderMarkAreData(chunkSize: Int) throws {
        let found = try records([0xEF, 0xBB] + Array("x,y\n".utf8), chunkSize: chunkSize)
        #expect(found.map(\.fields) == [[String(decoding: [0xEF, 0xBB, UInt8(ascii: "x")], as: UTF8.self), "y"]])
        // They start the field, so a quote after them is inside an unquoted field.
        #expect(throws: CSVReader.SyntaxError.self) { try records([0xEF, 0xBB] + Array("\"x\",y\n".utf8), chunkSize: chunkSize) }
    }

    @Test func blankLinesAreSkippedAndTheLastRecordNeedsNoLineBreak() throws {
        let found = try records("a\n\n\r\nb\nc")
        #expect(found.map(\.fields) == [["a"], ["b"], ["c"]])
        #expect(found.map(\.line) == [1, 4, 5])
    }

    @Test func bytesThatAreNotUTF8PassThroughForTheCallerToRefuse() throws {
        let found = try records(Array("a,".utf8) + [0xFF, 0xFE] + Array("\n".utf8))
        #expect(found.count == 1)
        let directory = TemporaryDirectory()
        let path = directory.path("bad.csv")
        try Data(Array("a,".utf8) + [0xFF] + Array("\n".utf8)).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let reader = CSVReader(input: ByteInput(descriptor: descriptor))
        #expect(try reader.next())
        #expect(reader.withField(1) { String(validating: $0, as: UTF8.self) } == nil)
    }

    func syntaxError(_ text: String) throws -> (line: Int, reason: String, after: [[String]]) {
        let directory = TemporaryDirectory()
        let path = directory.path("broken.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let reader = CSVReader(input: ByteInput(descriptor: descriptor, chunkSize: 5))
        var error: CSVReader.SyntaxError?
        var after: [[String]] = []
        while true {
            do {
                guard try reader.next() else { break }
                if error != nil {
                    after.append((0..<reader.fieldCount).map { index in reader.withField(index) { String(decoding: $0, as: UTF8.self) } })
                }
            } catch let caught as CSVReader.SyntaxError {
                error = caught
            }
        }
        let found = try #require(error)
        return (found.line, found.reason, after)
    }

    @Test func aQuoteInsideAnUnquotedFieldIsAnErrorOnItsLineAndReadingResumes() throws {
        let result = try syntaxError("a,b\nx,y\"z\nok,1\n")
        #expect(result.line == 2)
        #expect(result.reason.contains("quote inside an unquoted field"))
        #expect(result.after == [["ok", "1"]])
    }

    @Test func textAfterAClosingQuoteIsAnError() throws {
        let result = try syntaxError("a,b\n\"x\"y,1\nok,2\n")
        #expect(result.line == 2)
        #expect(result.reason.contains("after a closing quote"))
        #expect(result.after == [["ok", "2"]])
    }

    @Test func anUnclosedQuoteIsReportedAtTheLineWhereItsRecordStarts() throws {
        let result = try syntaxError("a,b\nok,1\n\"never closed,2\nmore\n")
        #expect(result.line == 3)
        #expect(result.reason.contains("not closed"))
    }
}
