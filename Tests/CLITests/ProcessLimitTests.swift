import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// How the binary behaves at the limits of its process: no arguments at all, and a file-size
/// limit that a write passes.
@Suite struct ProcessLimitTests {
    let database = CLIDatabase()

    @Test func aProcessStartedWithNoArgumentsAtAllSaysSoAndExits70() throws {
        let directory = TemporaryDirectory()
        let errorsPath = directory.path("stderr"), outputPath = directory.path("stdout")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // argv = [NULL]: not even the program's own name (Linux passes [""] in its place).
        var argv: [UnsafeMutablePointer<CChar>?] = [nil]
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("STOCKROOM_DB=\(database.path)"), nil]
        defer { free(environment[0]) }
        var pid = pid_t()
        #expect(posix_spawn(&pid, Processes.stockroomPath, &actions, nil, &argv, &environment) == 0)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        let exitCode = (status >> 8) & 0xFF
        let errors = try String(contentsOfFile: errorsPath, encoding: .utf8)
        #expect(status & 0x7F == 0, "not killed by a signal")
        #expect(exitCode == 70, "\(errors)")
        #expect(errors.split(separator: "\n").count == 1)
        #expect(errors.hasPrefix("error: the process received no command-line arguments"))
        #expect(try String(contentsOfFile: outputPath, encoding: .utf8).isEmpty)
        #expect(!database.exists)
    }

    @Test func aWritePastTheFileSizeLimitFailsWithOneLineAndChangesNothing() throws {
        #expect(try database.stockroom("items", "add", "--name", "Keyboard").status == 0)
        let before = try database.contents()
        // 64 KiB allows the 32 KiB -shm file; a 100 kB name cannot fit in the WAL.
        let result = try Processes.run("/bin/bash", ["-c", #"ulimit -f 64; exec "$0" items add --name "$(printf 'x%.0s' {1..100000})""#,
                                                     Processes.stockroomPath],
                                       environment: ["STOCKROOM_DB": database.path])
        expectFailure(result, code: .ioError, mentioning: "file-size limit")
        #expect(result.errorMessage.hasSuffix("nothing was changed"), "\(result)")
        #expect(try database.contents() == before)
        let listed = try database.stockroom("items", "list", "--format", "csv")
        #expect(listed.lines.count == 2, "\(listed)")
    }

    /// Under `ulimit -f 0` nothing can be written to any regular file, stderr included when it
    /// is one (cron's log, a CI log file): the error line cannot be written, and writing it must
    /// not trap (Foundation's `FileHandle.write` did: SIGILL, exit 132). The exit code still says 74.
    @Test func aCreateUnderAZeroFileSizeLimitExits74EvenWhenStderrIsAFile() throws {
        let directory = TemporaryDirectory()
        let target = directory.path("new.sqlite"), errors = directory.path("stderr")
        let result = try Processes.run("/bin/bash", ["-c", #"ulimit -f 0; exec "$0" --db "$1" items add --name first 2>"$2""#,
                                                     Processes.stockroomPath, target, errors])
        #expect(result.status == Failure.Code.ioError.rawValue, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOfFile: errors, encoding: .utf8).isEmpty, "nothing fits under a limit of 0")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["stderr"],
                "no database and no temporary file is left")
    }

    @Test func aCreateUnderAZeroFileSizeLimitSaysSoOnOneLineWhenStderrIsAPipe() throws {
        let directory = TemporaryDirectory()
        let target = directory.path("new.sqlite")
        let result = try Processes.run("/bin/bash", ["-c", #"ulimit -f 0; exec "$0" --db "$1" items add --name first"#,
                                                     Processes.stockroomPath, target])
        expectFailure(result, code: .ioError, mentioning: "file-size limit")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}
