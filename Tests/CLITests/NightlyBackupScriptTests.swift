import Foundation
import StockroomTestSupport
import Testing

/// `scripts/nightly-backup.sh` run for real, with the real `stockroom` binary, on real files.
@Suite struct NightlyBackupScriptTests {
    let fixture = CLIDatabase()
    let backups: String
    static let script = Processes.packageRoot.appending(path: "scripts/nightly-backup.sh").path
    static let backupName = #"^stockroom-\d{8}T\d{6}Z\.sqlite$"#

    init() throws {
        backups = fixture.directory.path("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
        try fixture.addSampleContent()
    }

    func runScript(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let merged = ["STOCKROOM_BIN": Processes.stockroomPath].merging(environment) { $1 }
        return try Processes.run("/bin/bash", [Self.script] + arguments, environment: merged)
    }

    func nightly(keep: Int? = nil, db: String? = nil) throws -> ProcessResult {
        try runScript(["--dest", backups, "--db", db ?? fixture.path] + (keep.map { ["--keep", String($0)] } ?? []))
    }

    /// Everything in the backups folder, hidden files included.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
    }

    func newBackups(among names: [String]) -> [String] {
        names.filter { $0.range(of: Self.backupName, options: .regularExpression) != nil && !$0.hasPrefix("stockroom-2020") }
    }

    /// Good backups from earlier nights: real backups under dated names.
    func plantOldBackups(days: ClosedRange<Int>) throws -> [String] {
        let source = try fixture.backup(named: "planted.sqlite")
        return try days.map { day in
            let name = "stockroom-202001\(day < 10 ? "0" : "")\(day)T023000Z.sqlite"
            try FileManager.default.copyItem(atPath: source, toPath: "\(backups)/\(name)")
            return name
        }
    }

    func expectOneLogLine(_ result: ProcessResult, startingWith prefix: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && lines.first?.hasPrefix("nightly-backup: \(prefix)") == true, "\(result)",
                sourceLocation: sourceLocation)
    }

    @Test func aRunWritesOneCheckedBackupReadableByItsOwnerAndLogsOneLine() throws {
        let result = try nightly()
        #expect(result.status == 0, "\(result)")
        expectOneLogLine(result, startingWith: "ok: stockroom-")
        let names = try names()
        let written = newBackups(among: names)
        #expect(names == [".nightly-backup.lock"] + written && written.count == 1, "\(names)")
        let path = "\(backups)/\(written[0])"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(result.stderr.contains("\(size) bytes"), "\(result)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try fixture.contents(of: path) == fixture.contents(of: fixture.path))
        #expect(try fixture.stockroom("check", "--db", path).status == 0)
    }

    @Test func rotationKeepsExactlyTheNewestNAndNothingElseIsTouched() throws {
        let planted = try plantOldBackups(days: 1...5)
        let unrelated = ["notes.txt", "stockroom-manual.sqlite"]
        for name in unrelated { #expect(FileManager.default.createFile(atPath: "\(backups)/\(name)", contents: Data("keep me".utf8))) }

        let result = try nightly(keep: 3)
        #expect(result.status == 0, "\(result)")
        expectOneLogLine(result, startingWith: "ok: ")
        #expect(result.stderr.contains("kept 3, deleted 3"), "\(result)")
        let names = try names()
        let new = newBackups(among: names)
        #expect(new.count == 1)
        #expect(names == ([".nightly-backup.lock"] + planted.suffix(2) + unrelated + new).sorted(), "\(names)")
    }

    @Test(arguments: ["missing", "not a database"])
    func aFailingBackupKeepsEveryOlderBackupAndLeavesNothingBehind(_ problem: String) throws {
        let planted = try plantOldBackups(days: 1...3)
        let database = fixture.directory.path("broken.sqlite")
        if problem == "not a database" { try "id,name\n".write(toFile: database, atomically: false, encoding: .utf8) }

        let result = try nightly(keep: 1, db: database)
        #expect(result.status == 1, "\(result)")
        expectOneLogLine(result, startingWith: "FAILED: stockroom backup exited \(problem == "missing" ? 66 : 74)")
        #expect(result.stderr.contains("broken.sqlite"), "\(result)")
        #expect(try names() == [".nightly-backup.lock"] + planted)
    }

    /// A database whose content breaks a rule (a colour the schema does not know, written in
    /// the sqlite3 shell around the CHECKs): its backup is a faithful copy with the same
    /// problems, so it is kept, and the run fails (exit 4) naming the problems' count and the
    /// `check` command that lists them (issue 20: before, every such backup was removed).
    @Test func aFaithfulCopyOfADatabaseThatBreaksARuleIsKeptAndTheRunFails() throws {
        let planted = try plantOldBackups(days: 1...2)
        try #require(try Processes.sqlite3(fixture.path,
            "PRAGMA ignore_check_constraints = ON; UPDATE items SET color = 'mauve' WHERE name = 'Phone';").status == 0)
        let check = try fixture.stockroom("check")
        #expect(check.status == 65, "\(check)")
        let count = check.stdout.split(separator: "\n").count

        let result = try nightly(keep: 1)
        #expect(result.status == 4, "\(result)")
        expectOneLogLine(result, startingWith: "FAILED: the database has \(count) problem(s) that `stockroom check --db \(fixture.path)` lists; stockroom-")
        #expect(result.stderr.contains("is a faithful copy with the same problems and was kept; no older backup deleted"), "\(result)")
        let names = try names()
        let kept = newBackups(among: names)
        #expect(kept.count == 1 && names == [".nightly-backup.lock"] + planted + kept, "\(names)")
        #expect(try fixture.contents(of: "\(backups)/\(kept[0])") == fixture.contents(of: fixture.path))
    }

    /// A backup that is not what its source holds is still removed, the older ones kept: a copy
    /// with a problem its source does not have (a row changed after the copy), and a damaged
    /// one. A stand-in for the binary spoils the copy right after the real `stockroom backup`.
    @Test(arguments: ["differs", "damaged"])
    func aCopyThatDiffersFromItsSourceIsRemovedAndOlderOnesAreKept(_ fault: String) throws {
        let planted = try plantOldBackups(days: 1...2)
        let standIn = fixture.directory.path("stockroom-stand-in")
        let spoil = fault == "differs"
            ? #"sqlite3 "$partial" "PRAGMA ignore_check_constraints = ON; UPDATE items SET color = 'mauve' WHERE name = 'Phone';""#
            : #"head -c 8192 /dev/urandom | dd of="$partial" bs=4096 seek=1 conv=notrunc status=none"#
        try """
            #!/bin/bash
            if [ "$1" = backup ]; then
                "$REAL_STOCKROOM" "$@" || exit
                partial=${@: -1}
                \(spoil) || exit 99
                exit 0
            fi
            exec "$REAL_STOCKROOM" "$@"
            """.write(toFile: standIn, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn)
        #expect(try fixture.stockroom("check").status == 0, "the source is sound")

        let result = try runScript(["--dest", backups, "--db", fixture.path, "--keep", "1"],
                                   environment: ["STOCKROOM_BIN": standIn, "REAL_STOCKROOM": Processes.stockroomPath])
        #expect(result.status == 2, "\(result)")
        expectOneLogLine(result, startingWith: "FAILED: the new backup failed stockroom check (exit \(fault == "differs" ? 65 : 74))")
        if fault == "differs" { #expect(result.stderr.contains("mauve"), "\(result)") }
        #expect(try names() == [".nightly-backup.lock"] + planted)
    }

    @Test func theLeftoversOfAKilledRunAreRemovedByTheNext() throws {
        let leftovers = [".stockroom-20200101T023000Z.sqlite.partial", "..stockroom-20200101T023000Z.sqlite.partial.tmp-1A2B3C4D"]
        for name in leftovers { #expect(FileManager.default.createFile(atPath: "\(backups)/\(name)", contents: Data("half".utf8))) }
        let result = try nightly()
        #expect(result.status == 0, "\(result)")
        let names = try names()
        #expect(names == [".nightly-backup.lock"] + newBackups(among: names), "\(names)")
    }

    @Test(.timeLimit(.minutes(2)))
    func aSecondRunWhileTheFirstIsStillGoingExitsAtOnceAndChangesNothing() throws {
        // The first run's stockroom is a stand-in that says when it has started (the first run
        // then holds the lock) and waits for the test's go-ahead before doing the real backup.
        let started = fixture.directory.path("started.fifo"), go = fixture.directory.path("go.fifo")
        try #require(try Processes.run("/usr/bin/mkfifo", [started, go]).status == 0)
        let standIn = fixture.directory.path("stockroom-stand-in")
        try """
            #!/bin/bash
            if [ "$1" = backup ]; then
                timeout 60 bash -c 'echo started > "$1"' _ "$STARTED_FIFO" || exit 99
                timeout 60 bash -c 'read -r _ < "$1"' _ "$GO_FIFO" || exit 99
            fi
            exec "$REAL_STOCKROOM" "$@"
            """.write(toFile: standIn, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn)

        let first = try BackgroundProcess("/bin/bash", [Self.script, "--dest", backups, "--db", fixture.path], environment: [
            "STOCKROOM_BIN": standIn, "STARTED_FIFO": started, "GO_FIFO": go, "REAL_STOCKROOM": Processes.stockroomPath,
        ])
        let signal = try Processes.run("/usr/bin/timeout", ["60", "/usr/bin/head", "-n", "1", started])
        try #require(signal.output == "started", "\(signal)")

        let second = try nightly()
        #expect(second.status == 75, "\(second)")
        expectOneLogLine(second, startingWith: "SKIPPED: another run")
        #expect(newBackups(among: try names()) == [])

        try #require(try Processes.run("/usr/bin/timeout", ["60", "/bin/bash", "-c", #"echo go > "$1""#, "_", go]).status == 0)
        let firstResult = first.wait()
        #expect(firstResult.status == 0, "\(firstResult)")
        let names = try names()
        #expect(names == [".nightly-backup.lock"] + newBackups(among: names) && newBackups(among: names).count == 1, "\(names)")
    }

    @Test func badCommandLinesAMissingFolderAndAMissingBinaryHaveTheirOwnExitCodes() throws {
        for arguments in [[], ["--dest"], ["--dest", backups, "--keep", "0"], ["--dest", backups, "--keep", "many"], ["--dest", backups, "--verbose"]] {
            let result = try runScript(arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            expectOneLogLine(result, startingWith: "usage error: ")
        }
        let missingFolder = try runScript(["--dest", fixture.directory.path("no-such-folder"), "--db", fixture.path])
        #expect(missingFolder.status == 1, "\(missingFolder)")
        expectOneLogLine(missingFolder, startingWith: "FAILED: backup folder")

        let noBinary = try runScript(["--dest", backups, "--db", fixture.path],
                                     environment: ["STOCKROOM_BIN": fixture.directory.path("no-such-binary")])
        #expect(noBinary.status == 69, "\(noBinary)")
        expectOneLogLine(noBinary, startingWith: "FAILED: the stockroom binary was not found")
        #expect(try names() == [])
    }
}
