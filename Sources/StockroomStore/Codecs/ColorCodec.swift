import Inventory

/// `Color?` as one nullable `color` column: NULL for no colour, else the colour's name.
enum ColorCodec {
    static let column = "color"

    @inline(__always)
    static func text(for color: Color) -> StaticString {
        switch color {
        case .black: "black"
        case .blue: "blue"
        case .green: "green"
        case .red: "red"
        case .white: "white"
        case .yellow: "yellow"
        }
    }

    @inline(__always)
    static func bind<Sink: ParameterSink>(_ color: Color?, to row: inout RowBinder<Sink>) throws {
        if let color { try row.bindStatic(text(for: color)) } else { try row.bindNulls() }
    }

    @inline(__always)
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>) throws(ColumnDecodingError) -> Color? {
        let index = row.next()
        let statement = row.statement
        if statement.isNull(at: index) { return nil }
        let found = statement.withText(at: index) { bytes -> Color? in
            // Dispatch on length first: every candidate compared is the only one of its length
            // but for black/green/white, which the first comparison separates.
            switch bytes.count {
            case 3: return ColumnText.equals(bytes, text(for: .red)) ? .red : nil
            case 4: return ColumnText.equals(bytes, text(for: .blue)) ? .blue : nil
            case 5:
                if ColumnText.equals(bytes, text(for: .black)) { return .black }
                if ColumnText.equals(bytes, text(for: .green)) { return .green }
                return ColumnText.equals(bytes, text(for: .white)) ? .white : nil
            case 6: return ColumnText.equals(bytes, text(for: .yellow)) ? .yellow : nil
            default: return nil
            }
        }
        guard let found else {
            throw ColumnDecodingError(reason: "\(statement.columnName(at: index)) \(statement.describeColumn(at: index)) is not one of \(Color.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return found
    }
}
