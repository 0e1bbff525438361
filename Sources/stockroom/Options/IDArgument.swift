import ArgumentParser
import StockroomStore

/// The check every id argument gets in its command's `validate()`, so that a malformed id is
/// refused (exit 64) before the database is opened: opening for writing may already switch a
/// rollback-journal file to WAL, and a refused command leaves the file byte-identical.
enum IDArgument {
    /// Refuses `text` unless it can be an id or id prefix of a `record`; nil passes.
    static func validate(_ text: String?, _ record: StoreError.Record) throws {
        guard let text else { return }
        do {
            try IDPrefix.wellFormed(text, record: record)
        } catch let error as StoreError {
            throw ValidationError(error.description)
        }
    }
}
