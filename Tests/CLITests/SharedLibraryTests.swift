import Foundation
import StockroomTestSupport
import Testing

/// libpq is loaded only when a PostgreSQL database is used: `stockroom` on a SQLite file starts
/// without it (it costs every start 4.5 ms and 25 libraries; BENCHMARKS.md, "libpq on demand")
/// and runs on a machine where libpq is not installed.
@Suite struct SharedLibraryTests {
    /// Both programs: `stockroom` and `stockroom-serve`, which `stockroom serve` runs.
    static let programs = [Processes.stockroomPath, Processes.serverPath]

    @Test(arguments: programs) func theBinaryDoesNotNeedLibpqAtStartUp(program: String) throws {
        let needed = try SharedLibraries.needed(by: program)
        // SQLite is linked, as it is used on every run: seeing it proves readelf was understood.
        #expect(needed.contains("libsqlite3.so.0"), "\(needed)")
        #expect(!needed.contains { $0.hasPrefix("libpq") }, "\(program) needs \(needed)")
    }

    @Test func aRunOnAFileNeverLoadsLibpq() throws {
        // The dynamic linker reports every library it loads, at start-up or by dlopen() later,
        // when LD_DEBUG=files is set: nothing may load libpq on the way to listing a file.
        let database = CLIDatabase()
        #expect(try database.stockroom("items", "add", "--name", "Lamp", "--quantity", "2").status == 0)
        let run = try Processes.stockroom(["items", "list", "--limit", "20", "--format", "json", "--db", database.path],
                                          environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("\"Lamp\""), "\(run)")
        #expect(run.stderr.contains("file=libsqlite3.so.0"), "LD_DEBUG's output was not understood: \(run.stderr.prefix(2000))")
        #expect(!run.stderr.contains("libpq"), "\(run.stderr)")
    }

    /// Foundation's full module (with FoundationInternationalization and ICU's data) is not
    /// part of `stockroom`: every module, the web server included, uses FoundationEssentials
    /// only. Linked statically, the full module cost each start 4.8M instructions and 140 page
    /// faults before any command ran (BENCHMARKS.md, "Start-up", "Issue 19"). In the test build,
    /// which links Swift's libraries dynamically, a module that imports Foundation again shows up
    /// as a needed library. libdispatch is allowed: SwiftNIO, under Hummingbird in `serve`,
    /// needs it whatever Stockroom imports, and it is small and loads no ICU.
    @Test(arguments: programs) func theBinaryDoesNotNeedFoundationsFullModule(program: String) throws {
        let needed = try SharedLibraries.needed(by: program)
        // FoundationEssentials is expected (UUID, Data, FileManager): it proves the list was read.
        #expect(needed.contains("libFoundationEssentials.so"), "\(needed)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!needed.contains(library), "\(program) needs \(library): \(needed)")
        }
    }

    @Test func aRunOnAFileNeverLoadsFoundationsFullModuleOrICU() throws {
        let database = CLIDatabase()
        #expect(try database.stockroom("items", "add", "--name", "Lamp", "--quantity", "2").status == 0)
        let run = try Processes.stockroom(["items", "list", "--search", "amp", "--format", "json", "--db", database.path],
                                          environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("\"Lamp\""), "\(run)")
        #expect(run.stderr.contains("file=libFoundationEssentials.so"), "LD_DEBUG's output was not understood: \(run.stderr.prefix(2000))")
        for library in ["file=libFoundation.so", "libFoundationInternationalization", "ICU"] {
            #expect(!run.stderr.contains(library), "\(library) was loaded: \(run.stderr.prefix(4000))")
        }
    }

    /// `stockroom serve` execs the server: neither process loads Foundation's full module or ICU
    /// (the server answering a bad option, after its start-up).
    @Test func serveNeverLoadsFoundationsFullModuleOrICU() throws {
        let run = try Processes.stockroom(["serve", "--port", "70000"], environment: ["LD_DEBUG": "files"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains("error: --port must be between 0 and 65535"), "\(run.stderr.suffix(2000))")
        #expect(run.stderr.contains("stockroom-serve"), "the exec was not seen: \(run.stderr.prefix(4000))")
        #expect(run.stderr.contains("file=libFoundationEssentials.so"), "LD_DEBUG's output was not understood: \(run.stderr.prefix(2000))")
        for library in ["file=libFoundation.so", "libFoundationInternationalization", "ICU"] {
            #expect(!run.stderr.contains(library), "\(library) was loaded: \(run.stderr.prefix(4000))")
        }
    }

    /// The same rule at the source, with the file to blame: no product module imports
    /// Foundation's full module. EmbedMigrationsTool is a build tool, never part of `stockroom`.
    @Test func noProductModuleImportsFoundationsFullModule() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let allowed = ["EmbedMigrationsTool/"]
        var checked = 0
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)!
        while let file = files.nextObject() as? String {
            guard file.hasSuffix(".swift"), !allowed.contains(where: { file.hasPrefix($0) }) else { continue }
            checked += 1
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if text.split(separator: "\n").contains(where: { $0 == "import Foundation" }) { offenders.append(file) }
        }
        #expect(checked > 100, "the sources were not found under \(sources.path)")
        #expect(offenders.isEmpty, "these import Foundation's full module: \(offenders)")
    }
}
