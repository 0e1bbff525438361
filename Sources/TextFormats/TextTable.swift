/// Columns aligned for people: two spaces between columns, each padded to its widest cell
/// (counted in Characters), no trailing spaces.
public enum TextTable {
    /// The header and rows as aligned lines, the header first.
    public static func lines(header: [String], rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = columnWidths(all)
        return all.map { line($0, widths: widths) }
    }

    /// The width of each column: its widest cell.
    public static func columnWidths(_ rows: [[String]]) -> [Int] {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return widths
    }

    /// One line of `cells` padded to `widths`; a cell wider than its column pushes the rest
    /// of the line right.
    public static func line(_ cells: [String], widths: [Int]) -> String {
        cells.enumerated().map { column, cell in
            column == cells.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
        }.joined(separator: "  ")
    }
}
