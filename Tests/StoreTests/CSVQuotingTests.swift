import Foundation
@testable import StockroomStore
import StockroomTestSupport
import Testing
import TextFormats

/// One CSV quoting rule: the export's byte writer and the string form (`items list --format
/// csv`, `query`, `history`) quote the same fields the same way, and the import's reader reads
/// every field back as it was, over many generated fields.
@Suite struct CSVQuotingTests {
    /// Pieces fields are made of: everything that decides quoting, and text around it.
    static let pieces: [String] = [
        ",", "\"", "\r", "\n", "\r\n", " ", "  ", "a", "Z", "0", "é", "e\u{301}", "中", "🎉", "\t", "\u{1B}", "\u{7F}",
        "\u{80}", "\u{85}", "\u{9B}", "\u{9F}", "\u{A0}", "'", "=", "+", "-", "@", ";", "\\",
    ]

    static func fields(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(state: seed)
        var fields = ["", " ", " leading", "trailing ", "plain", "\"", ",", "\r", "\n"]
        while fields.count < count {
            let length = Int(generator.next() % 24)
            fields.append((0..<length).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        return fields
    }

    /// What the export writes for `name`, read back from the file it wrote.
    static func exported(_ name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("field.csv")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        let output = ByteOutput(descriptor: descriptor)
        var bytes = Array(name.utf8)
        try bytes.withUnsafeMutableBufferPointer { try ItemExport.writeCSVName(UnsafeBufferPointer($0), to: output) }
        try output.flush()
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func theExportQuotesEveryFieldAsTheStringFormDoes() throws {
        let directory = TemporaryDirectory()
        for field in Self.fields(count: 2_000, seed: 18) {
            var bytes = Array(field.utf8)
            let guarded = bytes.withUnsafeMutableBufferPointer { ItemCSVLayout.needsFormulaGuard(UnsafeBufferPointer($0)) }
            // The formula guard is the export's own, a leading `'` that needs no quotes.
            let expected = CSVText.field(guarded ? "'" + field : field)
            #expect(try Self.exported(field, in: directory) == expected, "\(field.debugDescription)")
        }
    }

    @Test func everyQuotedFieldReadsBackAsItWas() throws {
        let fields = Self.fields(count: 2_000, seed: 19)
        let directory = TemporaryDirectory()
        let path = directory.path("fields.csv")
        // Each field first in a record of two, so that an empty field is not a blank line.
        try fields.map { CSVText.record([$0, "end"]) }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let reader = CSVReader(input: ByteInput(descriptor: descriptor, chunkSize: 7))
        var read: [String] = []
        while try reader.next() {
            #expect(reader.fieldCount == 2)
            read.append(reader.withField(0) { String(decoding: $0, as: UTF8.self) })
        }
        #expect(read == fields)
    }

    @Test func quotesOnlyWhatTheRuleNames() {
        for field in Self.fields(count: 2_000, seed: 20) {
            let quoted = CSVText.field(field) != field
            let named = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || ControlCharacters.contains($0) }
            #expect(quoted == named, "\(field.debugDescription)")
        }
    }
}
