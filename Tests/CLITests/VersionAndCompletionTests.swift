import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom --version`, and the completion scripts ArgumentParser generates from the commands.
@Suite struct VersionAndCompletionTests {
    let directory = TemporaryDirectory()

    @Test func versionNamesTheReleaseAndTheSQLiteInUseWithoutOpeningADatabase() throws {
        let database = directory.path("never-created.sqlite")
        let result = try Processes.stockroom(["--version"], environment: ["STOCKROOM_DB": database])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        // The system's SQLite, as its own shell reports it ("3.40.1 2022-12-28 ...").
        let shell = try Processes.run("/usr/bin/sqlite3", ["--version"])
        let sqlite = try #require(shell.stdout.split(separator: " ").first)
        #expect(result.stdout == "stockroom \(StockroomVersion.number) (SQLite \(sqlite))\n")
        #expect(StockroomVersion.number.split(separator: ".").compactMap { Int($0) }.count == 3)
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    /// The generated script for each shell names every subcommand and completes `--db` with
    /// file names.
    @Test(arguments: [
        ("bash", "'--db')\n        __stockroom_add_completions -f"),
        ("zsh", ":path:_files'"),
        ("fish", "stockroom.sqlite.' -rF"),
    ])
    func completionScriptsNameTheCommandsAndCompleteFiles(shell: String, fileCompletion: String) throws {
        let result = try Processes.stockroom(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        for command in Stockroom.configuration.subcommands.map({ $0._commandName }) {
            #expect(result.stdout.contains(command), "\(shell) script lacks \(command)")
        }
        for command in ["list", "add", "wizard", "verify"] {
            #expect(result.stdout.contains(command), "\(shell) script lacks \(command)")
        }
        #expect(result.stdout.contains(fileCompletion), "\(shell): \(result.stdout)")
    }

    @Test func bashCompletesFileNamesForBackupAndRestoreArguments() throws {
        let script = try Processes.stockroom(["--generate-completion-script", "bash"]).stdout
        for command in ["backup", "restore"] {
            let function = try #require(script.range(of: "_stockroom_\(command)() {"), "no bash function for \(command)")
            let rest = script[function.upperBound...]
            let body = rest[..<(rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex)]
            #expect(body.contains("case \"${positional_number}\" in\n    1)\n        __stockroom_add_completions -f"),
                    "\(command): \(body)")
        }
    }

    @Test func theScriptWritesOneCompletionFilePerShell() throws {
        let script = Processes.packageRoot.appending(path: "scripts/generate-completions.sh").path
        let folder = directory.path("completions")
        let result = try Processes.run(script, [folder], environment: ["STOCKROOM": Processes.stockroomPath])
        #expect(result.status == 0, "\(result)")
        for (file, shell) in [("stockroom.bash", "bash"), ("_stockroom", "zsh"), ("stockroom.fish", "fish")] {
            let written = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let generated = try Processes.stockroom(["--generate-completion-script", shell]).stdout
            #expect(written == generated, "\(file) differs from --generate-completion-script \(shell)")
        }
    }
}
