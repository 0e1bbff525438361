import FoundationEssentials
import Glibc
import Inventory

extension ItemImport {
    /// Decodes one JSON object as `import` reads a line of JSON Lines (the object
    /// `items show --format json` and `export` write; `id`, `color` and the times may be left
    /// out), checked against the same rules, with the same reasons. A front that takes one
    /// item at a time (`POST /api/items`) reads it exactly as a file of one line.
    ///
    /// An object without an id gets a new one; its times, if any, are ignored: an item added
    /// one at a time is added now.
    ///
    /// - Throws: ``RowProblem`` saying what is wrong with the object.
    public static func item(fromJSONObject text: String) throws -> Item {
        var bytes = Array(text.utf8)
        let row = try bytes.withUnsafeMutableBufferPointer { buffer in
            try ImportRowDecoder().decode(jsonLine: UnsafeBufferPointer(buffer))
        }
        return row.item(id: row.id ?? UUID.version7())
    }
}
