import FoundationEssentials

// The one way from the public types to an engine. ``InventoryStore`` holds its connection as
// `any EngineConnection`, and the repositories as `any ItemStorage` / `any DraftStorage`:
// what they do is written once, over ``StoreConnection``, as default implementations of these
// protocols' requirements. An engine's connection type conforms as it is (Engines/SQLite/,
// Engines/PostgreSQL/), so each witness is a copy of the implementation specialised for that
// concrete type: a public call is one dynamic call, and the rows under it are read and
// written with direct calls, as SQLite's path was with a switch on the engine in every
// method (BENCHMARKS.md, issue 13). A third engine is a connection type that conforms to
// this protocol (the compiler asks for ``StoreConnection``'s requirements and this one's few
// of its own), a case in ``ConcreteConnection``, and a case of ``DatabaseLocation``, at which
// the compiler stops in each exhaustive switch that opens a location (``InventoryStore``'s
// two, ``StoreMigrations``', ``UntrustedQuery``'s, the check's and the observation's) and in
// `DatabaseLocation.filePath`, which the file-only steps ask.

/// A connection of any engine, as the store holds it.
protocol EngineConnection: ItemStorage, DraftStorage {
    /// Runs `body` in one new write transaction spanning any number of repository calls
    /// (``InventoryStore/write(_:)``).
    func inStoreTransaction<T>(_ body: () throws -> T) throws -> T
    /// Runs `writes` (each returning whether it succeeded) so that they share one commit where
    /// the engine gains by it (``StorePool/groupedWrite(_:)``); throws ``GroupCommitFailure``.
    func commitTogether(_ writes: [() -> Bool]) throws
    /// True when a connection to a server broke and ``reconnect()`` is needed; false for a file.
    /// Reads what the server sent meanwhile (no round trip), so a server's restart shows here
    /// before the next statement rather than as its failure.
    var isDisconnected: Bool { get }
    /// Connects again after the connection broke; nothing to do for a file.
    func reconnect() throws
    /// The connection as its own type, for the one place where two connections meet and each
    /// pair of engines runs its own specialised copy (``InventoryCopy``).
    var concrete: ConcreteConnection { get }
    /// A watch that wakes a reader of the history when the server says another session
    /// committed (PostgreSQL's LISTEN), or nil for an engine whose commits are watched on its
    /// file, before the file is opened (SQLite's `FileCommitWatch`, ``ObservedStore``).
    func serverCommitWatch() throws -> (any CommitWatch)?
    /// Writes every item as ``ItemExport`` does, specialised for this engine.
    func exportItems(_ format: TransferFormat, to output: ByteOutput) throws -> Int
    /// Runs `importer` on this connection, specialised for this engine.
    func importItems(_ importer: ItemImport, reading descriptor: Int32,
                     progress: (ItemImport.Progress) -> Void) throws -> ItemImport.Summary
}

extension EngineConnection {
    func exportItems(_ format: TransferFormat, to output: ByteOutput) throws -> Int {
        try ItemExport.write(format, from: self, to: output)
    }

    func importItems(_ importer: ItemImport, reading descriptor: Int32,
                     progress: (ItemImport.Progress) -> Void) throws -> ItemImport.Summary {
        try importer.run(reading: descriptor, into: self, progress: progress)
    }
}
