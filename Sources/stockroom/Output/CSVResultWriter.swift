import SQLiteCore

/// Query results as CSV per RFC 4180: a header row of column names, CRLF line ends, fields
/// quoted when they hold a comma, quote or line break. NULL and empty text both read as an
/// empty field; JSON tells them apart.
struct CSVResultWriter: ResultWriter {
    mutating func begin(columns: [String]) {
        Output.write(Output.csvRecord(columns) + "\n")
    }

    mutating func write(_ row: [SQLiteValue]) {
        Output.write(Output.csvRecord(row.map(ValueText.csv)) + "\n")
    }

    mutating func finish() {}
}
