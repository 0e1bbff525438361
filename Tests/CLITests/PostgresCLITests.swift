import Foundation
import StockroomMigrations
import StockroomTestSupport
import Testing

/// The CLI contract on both engines: the same commands print the same output and exit with
/// the same codes on a SQLite file and on a PostgreSQL server (a scratch schema of the
/// throwaway server the tests start), ids and times aside.
@Suite struct PostgresCLITests {
    /// One place an inventory lives, with the `STOCKROOM_DB` value that names it.
    final class Target: @unchecked Sendable {
        let directory = TemporaryDirectory()
        let schema: PostgresScratchSchema?
        let db: String

        init(server: Bool) throws {
            schema = server ? try PostgresScratchSchema() : nil
            db = schema?.uri ?? directory.path("stockroom.sqlite")
        }

        @discardableResult
        func stockroom(_ arguments: [String]) throws -> ProcessResult {
            try Processes.stockroom(arguments, environment: ["STOCKROOM_DB": db])
        }
    }

    /// What a run shows, with every UUID and timestamp replaced by a placeholder (each is the
    /// same length as what it replaces, so table columns line up as they did).
    struct Outcome: Equatable, CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String
        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }

        init(_ result: ProcessResult) {
            status = result.status
            stdout = Outcome.normalised(result.stdout)
            stderr = Outcome.normalised(result.stderr)
        }

        static func normalised(_ text: String) -> String {
            var text = text.replacingOccurrences(
                of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", with: "<--------------id---------------->",
                options: .regularExpression)
            text = text.replacingOccurrences(
                of: "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z", with: "<--------time-------->",
                options: .regularExpression)
            return text
        }
    }

    /// Runs the same session on a file and on a server, step by step; each step's arguments
    /// may use the ids earlier steps printed. Returns each step's outcome on both.
    func session(_ steps: [(_ ids: [String]) -> [String]]) throws -> [(file: Outcome, server: Outcome)] {
        let file = try Target(server: false), server = try Target(server: true)
        var fileIDs: [String] = [], serverIDs: [String] = []
        var outcomes: [(Outcome, Outcome)] = []
        for step in steps {
            let onFile = try file.stockroom(step(fileIDs))
            let onServer = try server.stockroom(step(serverIDs))
            if onFile.status == 0, let id = PostgresCLITests.printedID(onFile.output) { fileIDs.append(id) }
            if onServer.status == 0, let id = PostgresCLITests.printedID(onServer.output) { serverIDs.append(id) }
            outcomes.append((Outcome(onFile), Outcome(onServer)))
        }
        return outcomes
    }

    /// The id a command printed as its whole output (`items add`, `draft add`).
    static func printedID(_ output: String) -> String? {
        output.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", options: .regularExpression) != nil
            ? output : nil
    }

    @Test func itemsDraftsHistoryAndMigrateBehaveTheSameOnAFileAndOnAServer() throws {
        let steps: [(_ ids: [String]) -> [String]] = [
            { _ in ["items", "add", "--name", "Mug", "--color", "blue", "--quantity", "5"] },
            { _ in ["items", "add", "--name", "Cup", "--out-of-stock", "--back-order"] },
            { _ in ["items", "add", "--name", "  "] },
            { _ in ["items", "list"] },
            { _ in ["items", "list", "--format", "json", "--status", "in-stock"] },
            { _ in ["items", "list", "--search", "MU", "--format", "csv"] },
            { ids in ["items", "show", ids[0].uppercased()] },
            { ids in ["items", "update", ids[0], "--quantity", "3"] },
            { ids in ["items", "update", ids[0], "--quantity", "9", "--if-version", "1"] },
            { ids in ["items", "history", ids[0]] },
            { ids in ["items", "history", ids[0], "--format", "csv"] },
            { _ in ["draft", "add", "--name", "Bowl"] },
            { ids in ["draft", "edit", ids[2], "--color", "red"] },
            { _ in ["draft", "list"] },
            { ids in ["draft", "duplicate", ids[1]] },
            { ids in ["draft", "save", ids[2]] },
            { ids in ["draft", "cancel", ids[3]] },
            { ids in ["draft", "show", ids[3]] },
            { ids in ["items", "delete", ids[1]] },
            { ids in ["items", "show", ids[1]] },
            { _ in ["items", "list", "--format", "json"] },
            { _ in ["items", "show", "zz"] },
            { _ in ["migrate", "up"] },
            { _ in ["migrate", "verify"] },
        ]
        let outcomes = try session(steps)
        for (index, outcome) in outcomes.enumerated() {
            #expect(outcome.file == outcome.server, "step \(index + 1): \(steps[index](["<a>", "<b>", "<c>", "<d>"]))")
        }
        // The session did what it says: not a comparison of two identical failures.
        #expect(outcomes.map(\.file.status) == [0, 0, 64, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 66, 0, 66, 0, 64, 0, 0],
                "\(outcomes.map(\.file.status))")
    }

    @Test func migrateStatusListsTheSameMigrationsOnAServer() throws {
        let server = try Target(server: true)
        let before = try server.stockroom(["migrate", "status"])
        #expect(before.status == 0, "\(before)")
        #expect(before.lines.dropFirst().allSatisfy { $0.contains("pending") }, "\(before)")
        #expect(try server.stockroom(["migrate", "up"]).lines == MigrationSet.embedded(.postgres).migrations.map { "Applied \($0.fileName)" })
        let after = try server.stockroom(["migrate", "status", "--format", "csv"])
        #expect(after.lines.dropFirst().allSatisfy { $0.contains(",applied,") && $0.hasSuffix(",true") }, "\(after)")
        #expect(try server.schema!.psql("DROP INDEX items_by_name").status == 0)
        let verify = try server.stockroom(["migrate", "verify"])
        #expect(verify.status == 65, "\(verify)")
        #expect(verify.stderr.hasPrefix("error: the database does not match its migrations: index items_by_name on items is missing"), "\(verify)")
    }

    /// Two `migrate up` processes at once on one server: both succeed, each migration is
    /// applied once (by one of them; the other waits on the advisory lock, then finds nothing).
    @Test func twoMigrateUpProcessesAtOnceBothSucceed() throws {
        let server = try Target(server: true)
        let results = try [0, 1].map { _ in
            try BackgroundProcess(Processes.stockroomPath, ["migrate", "up"], environment: ["STOCKROOM_DB": server.db])
        }.map { $0.wait() }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results)")
        let applied = results.flatMap(\.lines).filter { $0.hasPrefix("Applied ") }.sorted()
        #expect(applied == MigrationSet.embedded(.postgres).migrations.map { "Applied \($0.fileName)" }, "\(results)")
    }

    /// Every command that reads or writes the inventory goes to the server a URI names (the
    /// last one to do so was `import`): none refuses it as unsupported or opens it as a file.
    /// (`backup` and `restore` refuse a URI on purpose: the server's own tools copy it.)
    @Test(arguments: [["import", "/dev/null"], ["import", "--dry-run", "/dev/null"], ["export"], ["items", "list"],
                      ["draft", "list"], ["check"], ["migrate", "status"], ["query", "SELECT 1"]])
    func everyCommandTakesAServerURI(_ arguments: [String]) throws {
        let uri = "postgresql://stockroom:s3cret@/nowhere?host=/nonexistent&port=1"
        let result = try Processes.stockroom(arguments + ["--db", uri])
        #expect(result.status == 75, "\(result)")
        #expect(result.stderr.hasPrefix("error: could not connect to postgresql://stockroom:***@/nowhere"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: uri))
    }

    /// Issue 28: a connection string whose values libpq refuses only while connecting (a port
    /// that is no number, an unknown sslmode) is the user's mistake (64), not an outage (75):
    /// "try again when the server is reachable" would never help.
    @Test(arguments: ["postgresql://stockroom:s3cret@localhost:notaport/db",
                      "postgresql://stockroom:s3cret@localhost/db?sslmode=bogus",
                      "postgresql://stockroom:s3cret@localhost:70000/db",
                      "postgresql://stockroom:s3cret@h1:5432,h2:x/db",
                      "postgresql://stockroom:s3cret@localhost/db?connect_timeout=soon"])
    func aMalformedConnectionStringIsAUsageError(_ uri: String) throws {
        let result = try Processes.stockroom(["items", "list", "--db", uri])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("error: invalid connection string "), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(!result.stderr.contains("s3cret"), "\(result)")
    }

    @Test func anUnreachableServerIsOneLineWithoutThePassword() throws {
        let result = try Processes.stockroom(["items", "list", "--db", "postgresql://stockroom:s3cret@/inventory?host=/nonexistent&port=1"])
        #expect(result.status == 75, "\(result)")
        #expect(result.stderr.hasPrefix("error: could not connect to postgresql://stockroom:***@/inventory"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("s3cret"))
    }

    /// `draft wizard` in a real pseudo-terminal, on a server: the draft is on the server while
    /// the questions wait, the saved item after.
    @Test func theWizardSavesAnItemOnAServer() throws {
        let server = try Target(server: true)
        let terminal = try PseudoTerminalProcess(Processes.stockroomPath, ["draft", "wizard"],
                                                 environment: ["STOCKROOM_DB": server.db])
        try terminal.expect("Draft ")
        let draft = String(try terminal.expect(".").dropLast())
        try terminal.expect("Name: ")
        #expect(try server.schema!.psql("SELECT id FROM drafts").output == draft)
        terminal.typeLine("Keyboard")
        try terminal.expect("[none]: ")
        terminal.typeLine("Blue")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("")
        try terminal.expect("Quantity [1]: ")
        terminal.typeLine("100")
        try terminal.expect("[q]uit and keep the draft: ")
        terminal.typeLine("s")
        try terminal.expect("Saved item ")
        let itemID = try terminal.expect("\n").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try terminal.waitForExit() == 0, "\(terminal.transcript)")
        #expect(try server.schema!.psql("SELECT id, name, color, status, quantity FROM items").output == "\(itemID)|Keyboard|blue|in_stock|100")
        #expect(try server.schema!.psql("SELECT count(*) FROM drafts").output == "0")
    }

    /// Writer processes on a server whose tables do not exist yet: they race to create them
    /// (the migrations' advisory lock), then each adds an item and updates it; all succeed.
    @Test func writerProcessesOnANewServerDatabaseAllSucceed() throws {
        let server = try Target(server: true)
        let writers = 6, updates = 10
        let script = """
            id=$("$STOCKROOM" items add --name "Writer $1" --quantity 1) || exit 1
            i=1
            while [ $i -le \(updates) ]; do
                "$STOCKROOM" items update "$id" --quantity $((i + 1)) > /dev/null || exit 1
                i=$((i + 1))
            done
            """
        let processes = try (0..<writers).map { writer in
            try BackgroundProcess("/bin/sh", ["-c", script, "writer", String(writer)],
                                  environment: ["STOCKROOM_DB": server.db, "STOCKROOM": Processes.stockroomPath])
        }
        let results = processes.map { $0.wait() }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.filter { $0.status != 0 })")
        #expect(try server.schema!.psql("SELECT count(*) FROM schema_migrations").output == String(MigrationSet.embedded(.postgres).migrations.count))
        #expect(try server.schema!.psql("SELECT count(*), min(quantity), max(quantity) FROM items").output == "\(writers)|\(updates + 1)|\(updates + 1)")
        #expect(try server.schema!.psql("SELECT count(*) FROM item_events").output == String(writers * (updates + 1)))
    }
}
