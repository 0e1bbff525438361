import SQLiteCore

/// One value of a query's result, as each output format writes it: SQLite's values
/// (``ValueText``) and PostgreSQL's (``PostgresResultValue``) feed the same writers.
protocol ResultValue {
    /// A JSON value: numbers as numbers, NULL as null, text as a string, bytes as base64.
    var json: String { get }
    /// A CSV field before quoting: NULL is empty.
    var csvField: String { get }
    /// A table cell on one line, control characters escaped.
    var tableCell: String { get }
}

/// Writes the rows of an ad-hoc query as they are stepped, so a large result is never held in
/// memory (the table format keeps a bounded look-ahead; see ``TableResultWriter``).
///
/// A query that fails part-way has written some rows and no closing: callers treat the output
/// of a non-zero exit as incomplete.
protocol ResultWriter {
    /// Called once with the column names, before any row.
    mutating func begin(columns: [String])
    /// Called for each row of a SQLite query, values in column order.
    ///
    /// One requirement per engine's value type rather than one generic over ``ResultValue``:
    /// each writer forwards both to its own generic row code, which the compiler then
    /// specialises for each type. Called through `any ResultWriter`, a generic requirement ran
    /// unspecialised and took twice the CPU for 500,000 rows (measured, release build).
    mutating func write(_ row: [SQLiteValue])
    /// Called for each row of a PostgreSQL query, values in column order.
    mutating func write(_ row: [PostgresResultValue])
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
