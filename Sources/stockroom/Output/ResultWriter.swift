import StockroomStore

/// Writes the rows of an ad-hoc query as they are stepped, so a large result is never held in
/// memory (the table format keeps a bounded look-ahead; see ``TableResultWriter``).
///
/// A query that fails part-way has written some rows and no closing: callers treat the output
/// of a non-zero exit as incomplete.
protocol ResultWriter {
    /// Called once with the column names, before any row.
    mutating func begin(columns: [String])
    /// Called for each row, values in column order, on either engine.
    mutating func write(_ row: [QueryValue])
    /// Called once after the last row.
    mutating func finish()
}

extension OutputFormat {
    /// A writer for query results in this format.
    func resultWriter() -> any ResultWriter {
        switch self {
        case .table: TableResultWriter()
        case .json: JSONResultWriter()
        case .csv: CSVResultWriter()
        }
    }
}
