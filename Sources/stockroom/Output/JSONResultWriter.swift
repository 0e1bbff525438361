import StockroomStore
import Inventory
import TextFormats

/// Query results as a JSON array of objects, one object per line, keys in column order.
/// A column name that repeats gets `_2`, `_3`… so every key in an object is unique.
struct JSONResultWriter: ResultWriter {
    private var keys: [String] = []
    private var isFirstRow = true

    mutating func begin(columns: [String]) {
        keys = Self.uniqueNames(columns).map(JSONText.string)
        Output.write("[")
    }

    mutating func write(_ row: [QueryValue]) {
        var text = isFirstRow ? "\n{" : ",\n{"
        for (index, value) in row.enumerated() {
            if index > 0 { text += "," }
            text += keys[index] + ":" + ValueText.json(value)
        }
        Output.write(text + "}")
        isFirstRow = false
    }

    mutating func finish() {
        Output.line(isFirstRow ? "]" : "\n]")
    }

    static func uniqueNames(_ names: [String]) -> [String] {
        var taken = Set<String>()
        return names.map { name in
            var candidate = name
            var suffix = 2
            while taken.contains(candidate) {
                candidate = "\(name)_\(suffix)"
                suffix += 1
            }
            taken.insert(candidate)
            return candidate
        }
    }
}
