import StockroomStore
import TextFormats

/// Query results as CSV per RFC 4180: a header row of column names, CRLF line ends, fields
/// quoted when they hold a comma, quote or line break. NULL and empty text both read as an
/// empty field; JSON tells them apart.
struct CSVResultWriter: ResultWriter {
    mutating func begin(columns: [String]) {
        Output.write(CSVText.record(columns))
    }

    mutating func write(_ row: [QueryValue]) {
        Output.write(CSVText.record(row.map { ValueText.csv($0) }))
    }

    mutating func finish() {}
}
