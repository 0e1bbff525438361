// What `stockroom` shares with `stockroom-serve` (exit codes, `--db`, start-up checks, the
// version) lives in StockroomCommandLine; re-exported so that every file of this module, and the
// tests that `@testable import stockroom`, read `Failure`, `DatabaseOptions` and the rest as before.
@_exported import StockroomCommandLine
