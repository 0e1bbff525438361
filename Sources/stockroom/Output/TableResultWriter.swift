import StockroomStore
import TextFormats

/// Query results as aligned columns under a header, for people.
///
/// Column widths come from the header and the first ``lookAhead`` rows (or fewer, once they
/// hold ``lookAheadBytes`` of text), which are held back until then; every later row is written as soon as it arrives, padded to those widths. A
/// later cell wider than its column pushes the rest of its own line right, rather than making
/// the whole result wait in memory.
struct TableResultWriter: ResultWriter {
    /// Rows held back to choose column widths.
    static let lookAhead = 1_000
    /// Text held back at most, so a query of long values never waits in memory.
    static let lookAheadBytes = 4 << 20

    private var header: [String] = []
    private var pending: [[String]] = []
    private var widths: [Int]?
    private var pendingBytes = 0

    mutating func begin(columns: [String]) {
        header = columns
    }

    mutating func write(_ row: [QueryValue]) {
        let cells = row.map { ValueText.cell($0) }
        if let widths {
            Output.line(TextTable.line(cells, widths: widths))
            return
        }
        pending.append(cells)
        pendingBytes += cells.reduce(0) { $0 + $1.utf8.count }
        if pending.count == Self.lookAhead || pendingBytes >= Self.lookAheadBytes { flush() }
    }

    mutating func finish() {
        if widths == nil { flush() }
    }

    private mutating func flush() {
        let widths = TextTable.columnWidths([header] + pending)
        for cells in [header] + pending { Output.line(TextTable.line(cells, widths: widths)) }
        self.widths = widths
        pending = []
    }
}
