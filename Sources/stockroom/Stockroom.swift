import ArgumentParser
import StockroomStore

/// The `stockroom` command: an inventory kept in a local SQLite file or in a PostgreSQL database.
struct Stockroom: ParsableCommand {
    /// What parsing needs, and no more: the exit codes in the discussion and the full version
    /// line are added by ``completeForDisplay()`` only when help or the version is printed,
    /// so that an ordinary command builds neither at start-up (W6): building the wrapped
    /// exit-code list eagerly cost 1.96M instructions per run (+7.5%, callgrind on
    /// `items list --limit 20 --format json`); kept lazy, +42k (+0.16%).
    nonisolated(unsafe) static var configuration = CommandConfiguration(
        commandName: "stockroom",
        abstract: "Keep an inventory of items in a local SQLite file or a PostgreSQL database.",
        discussion: introduction,
        // Only needs to be non-empty here for ArgumentParser to offer --version.
        version: StockroomVersion.number,
        subcommands: [ItemsCommand.self, DraftCommand.self, MigrateCommand.self, QueryCommand.self,
                      BackupCommand.self, RestoreCommand.self, CheckCommand.self,
                      ImportCommand.self, ExportCommand.self, CopyCommand.self, EventsCommand.self, ServeCommand.self,
                      SyncCommand.self]
    )

    static let introduction = """
        The database is the file named by --db, else $STOCKROOM_DB, else
        ${XDG_DATA_HOME:-$HOME/.local/share}/stockroom/stockroom.sqlite. The first command \
        that writes to a new file creates it and applies the schema; commands that only \
        read never change the file (a missing one reads as empty and is not created).
        """

    /// The whole discussion: the introduction, the exit codes from ``Failure/Code`` (wrapped
    /// for a terminal, or one line each), and how errors read.
    static func discussion(wrapped: Bool) -> String {
        introduction + "\n\n" + Failure.Code.helpSection(wrapped: wrapped) + "\n\n"
            + #"Errors are one line on stderr, starting with "error:"."#
    }

    /// Completes the configuration before ArgumentParser prints help, the version, a
    /// completion script or the help dump (all of them read it then).
    static func completeForDisplay(wrapped: Bool = true) {
        configuration.discussion = discussion(wrapped: wrapped)
        configuration.version = StockroomVersion.line
    }
}

extension Failure {
    /// How ArgumentParser reads its own errors for `stockroom`; the help dump (`--experimental-dump-help`)
    /// feeds `swift package generate-manual`, whose man fills the lines itself.
    static var parser: Parser {
        Parser(exitStatus: { Stockroom.exitCode(for: $0).rawValue }, message: { Stockroom.message(for: $0) }) {
            Stockroom.completeForDisplay(wrapped: !CommandLine.arguments.contains("--experimental-dump-help"))
            print(Stockroom.fullMessage(for: $0))
        }
    }

    /// ``Failure/report(_:parser:)`` for `stockroom`.
    static func report(_ error: any Error) -> Int32 { report(error, parser: parser) }

    /// ``Failure/classify(_:parser:)`` for `stockroom`.
    static func classify(_ error: any Error) -> (Code, String) { classify(error, parser: parser) }
}
