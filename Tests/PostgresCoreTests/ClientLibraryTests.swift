import Foundation
@testable import PostgresCore
import StockroomTestSupport
import Testing

/// libpq is loaded with dlopen() on the first connection, never linked: a program that links
/// PostgresCore starts without it, and a missing or wrong library is one clear error.
@Suite struct ClientLibraryTests {
    @Test func aProgramLinkingPostgresCoreDoesNotNeedLibpqAtStartUp() throws {
        // This test bundle links PostgresCore and calls it (every other test in this target),
        // so if PostgresCore linked libpq, the bundle would name it here.
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let needed = try SharedLibraries.needed(by: executable)
        #expect(needed.contains("libc.so.6"), "readelf's output was not understood: \(needed)")
        #expect(!needed.contains { $0.hasPrefix("libpq") }, "\(executable) needs \(needed)")
    }

    @Test func theInstalledLibpqLoadsWithEveryFunctionPostgresCoreCalls() throws {
        try PostgresClientLibrary.load(library: PostgresClientLibrary.soname)
        try PostgresClientLibrary.load()
        // PostgreSQL 10 added target_session_attrs=read-write, which failover relies on.
        #expect(try PostgresClientLibrary.version() >= 10_00_00)
        #expect(try Connection.libraryVersion == PostgresClientLibrary.version())
    }

    @Test func aMissingLibraryIsOneLineSayingToInstallLibpq5() throws {
        let error = try #require(throws: PostgresError.self) {
            try PostgresClientLibrary.load(library: "libpq-stockroom-absent.so.5")
        }
        #expect(error.kind == .libraryUnavailable)
        #expect(error.sqlState == nil)
        #expect(error.description == "libpq is not installed: libpq-stockroom-absent.so.5: cannot open shared object file: "
                + "No such file or directory; install libpq5")
        #expect(!error.description.contains("\n"))
    }

    @Test func aLibraryThatIsNotLibpqNamesTheFirstMissingFunction() throws {
        // libm loads (dlopen succeeds) but has none of libpq's functions: the loader must
        // refuse it whole instead of handing out a table with holes.
        let error = try #require(throws: PostgresError.self) {
            try PostgresClientLibrary.load(library: "libm.so.6")
        }
        #expect(error.kind == .libraryUnavailable)
        #expect(error.description.hasPrefix("libpq cannot be used: "), "\(error)")
        #expect(error.description.contains("libm.so.6: undefined symbol: PQbackendPID"), "\(error)")
        #expect(error.description.hasSuffix("; install libpq5 (PostgreSQL 10 or later)"), "\(error)")
    }
}
