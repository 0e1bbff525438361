import Foundation
import FuzzSupport
import Inventory
@testable import StockroomStore

// The import row decoder (Sources/StockroomStore/Transfer/ImportRowDecoder.swift) on a JSON
// line (an input starting with `{`) or a CSV file (a header, then rows). Properties, beyond
// not crashing:
// - a row it accepts passes the domain's rules (`Item.validate`, what `items add` checks);
// - a row it accepts, written the way `stockroom export` writes it, in JSON Lines (through
//   JSONPresentation) and in CSV (the export's own row writer, formula guard included), decodes
//   back to the same row in both formats: the same id, every field and the times.

/// A decoded row with its times copied out of the decoder's reused buffers.
struct Row: Equatable {
    var id: UUID?
    /// Every field of the row (``ItemField``), under the row's id or the stand-in.
    var item: Item
    var createdAt: [UInt8]?
    var updatedAt: [UInt8]?

    init(_ row: ImportedRow, _ decoder: ImportRowDecoder) {
        id = row.id
        item = row.item(id: row.id ?? stand_in)
        createdAt = row.hasCreatedAt ? decoder.createdAt : nil
        updatedAt = row.hasUpdatedAt ? decoder.updatedAt : nil
    }
}

/// The id an export would write for the row (an exported row always has one).
let stand_in = UUID(uuid: (1, 2, 3, 4, 5, 6, 0x70, 8, 0x89, 10, 11, 12, 13, 14, 15, 16))

/// The row as one line of `stockroom export --format jsonl`.
func jsonLine(_ row: Row) -> [UInt8] {
    var text = JSONPresentation.object(for: row.item)
    text.removeLast() // the closing brace: the times follow, as the export writes them
    if let time = row.createdAt { text += ",\"createdAt\":\"" + String(decoding: time, as: UTF8.self) + "\"" }
    if let time = row.updatedAt { text += ",\"updatedAt\":\"" + String(decoding: time, as: UTF8.self) + "\"" }
    return Array((text + "}").utf8)
}

/// A row of the `items` table's columns (``ItemsTable/insertLayout``), bound by the store's own
/// codecs and read back as the export reads a statement's row: the fuzzer writes CSV through
/// the export's row writer itself rather than a copy of it.
final class StoredRow: ParameterSink, ColumnSource {
    private var values: [[UInt8]?] = Array(repeating: nil, count: ItemsTable.insertLayout.columns.names.count)

    init(_ row: Row) throws {
        let layout = ItemsTable.insertLayout
        var binder = RowBinder(self, at: layout.item)
        try ItemCodec.bind(row.item, to: &binder)
        values[layout.createdAt] = row.createdAt ?? []
        values[layout.updatedAt] = row.updatedAt ?? []
    }

    func bind(_ value: String, at index: Int) throws { values[index] = Array(value.utf8) }
    func bind(_ value: Int, at index: Int) throws { values[index] = Array(String(value).utf8) }
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws { values[index] = Array(bytes) }
    func bindStatic(_ value: StaticString, at index: Int) throws {
        values[index] = Array(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
    }
    func bindNull(at index: Int) throws { values[index] = nil }

    var columnCount: Int { values.count }
    func columnName(at index: Int) -> String { ItemsTable.insertLayout.columns.names[index] }
    func isNull(at index: Int) -> Bool { values[index] == nil }
    func int(at index: Int) -> Int { optionalInt(at: index) ?? 0 }
    func optionalInt(at index: Int) -> Int? { values[index].flatMap { Int(String(decoding: $0, as: UTF8.self)) } }
    func text(at index: Int) -> String { optionalText(at: index) ?? "" }
    func optionalText(at index: Int) -> String? { values[index].map { String(decoding: $0, as: UTF8.self) } }
    func withText<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try (values[index] ?? []).withUnsafeBufferPointer(body)
    }
    func describeColumn(at index: Int) -> String { optionalText(at: index).map { "'\($0)'" } ?? "NULL" }
    func fieldText(at index: Int) -> String { text(at: index) }
}

/// The row as `stockroom export --format csv` writes it, after its header.
func csvFile(_ row: Row) -> [UInt8] {
    try! captured { descriptor in
        let output = ByteOutput(descriptor: descriptor)
        try output.append(Array((ItemCSVLayout.titles.joined(separator: ",") + "\r\n").utf8))
        try ItemExport.writeCSVRow(try StoredRow(row), to: output)
        try output.flush()
    }
}

/// Every row of a CSV file that decodes; nil when the header is refused.
func csvRows(_ input: [UInt8], _ decoder: ImportRowDecoder) -> [Row]? {
    let descriptor = readableDescriptor(input)
    defer { close(descriptor) }
    let reader = CSVReader(input: ByteInput(descriptor: descriptor, chunkSize: 64))
    guard (try? reader.next()) == true, let columns = try? ImportRowDecoder.CSVColumns(header: reader) else { return nil }
    var rows: [Row] = []
    var calls = 0
    while true {
        calls += 1
        require(calls <= input.count + 2, "the reader does not reach the end")
        do {
            guard try reader.next() else { return rows }
            if let row = try? decoder.decode(reader, columns: columns) { rows.append(Row(row, decoder)) }
        } catch {
            continue // a syntax error; the reader resumes at the next line
        }
    }
}

func jsonRow(_ line: [UInt8], _ decoder: ImportRowDecoder) -> Row? {
    line.withUnsafeBufferPointer { bytes in
        (try? decoder.decode(jsonLine: bytes)).map { Row($0, decoder) }
    }
}

/// Checks the properties on a row the decoder accepted from some input.
func checkRoundTrips(_ row: Row, _ decoder: ImportRowDecoder) {
    do {
        try row.item.validate()
    } catch {
        require(false, "accepted a row the domain refuses: \(row) (\(error))")
    }
    var expected = row
    expected.id = row.id ?? stand_in
    let line = jsonLine(row)
    let fromJSON = jsonRow(line, decoder)
    require(fromJSON == expected, "\(row) written as \(String(decoding: line, as: UTF8.self).debugDescription) reads back as \(String(describing: fromJSON))")
    let file = csvFile(row)
    let fromCSV = csvRows(file, decoder)
    require(fromCSV == [expected], "\(row) written as \(String(decoding: file, as: UTF8.self).debugDescription) reads back as \(String(describing: fromCSV))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportRowDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size <= pipeInputLimit else { return -1 }
    let input = bytes(data, size)
    let decoder = ImportRowDecoder()
    if input.first == UInt8(ascii: "{") {
        if let row = jsonRow(input, decoder) { checkRoundTrips(row, decoder) }
    } else {
        for row in csvRows(input, decoder) ?? [] { checkRoundTrips(row, decoder) }
    }
    return 0
}

runFuzzer(fuzzImportRowDecoder)
