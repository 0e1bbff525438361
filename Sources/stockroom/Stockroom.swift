import ArgumentParser

/// The `stockroom` command: an inventory kept in a local SQLite file.
struct Stockroom: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stockroom",
        abstract: "Keep an inventory of items in a local SQLite file.",
        discussion: """
            The database is the file named by --db, else $STOCKROOM_DB, else
            ${XDG_DATA_HOME:-$HOME/.local/share}/stockroom/stockroom.sqlite. The first command \
            that writes to a new file creates it and applies the schema; commands that only \
            read never change the file (a missing one reads as empty and is not created).

            Exit codes: 0 success; 1 `migrate status --exit-code` found migrations not applied; \
            3 `items update --if-version` found the item changed since (nothing was changed); \
            64 bad command line (unknown or conflicting flags, malformed or ambiguous id, invalid \
            value, a name with a control character or only invisible characters, an argument \
            that is not UTF-8, SQL that `query` refuses, `draft wizard` without a terminal); 65 data that breaks a rule (saving a draft with a \
            blank name, bad rows in an import file, a row that does not decode, a database whose migrations cannot be trusted \
            or that `migrate verify` finds off, a query that fails while running, a SQLite file that \
            is not a Stockroom database); 66 item, draft, \
            database file or migrations folder not found (or, for `draft wizard`, the draft was \
            saved or cancelled by another process meanwhile); 70 the process received no arguments at all; 73 an output exists and --force was not \
            given, or cannot be created (backup, restore); 74 the file is not a SQLite database, is \
            corrupt, or cannot be read, opened, created or written (disk full, I/O error, ulimit -f); 75 a time limit ran out: the database stayed \
            busy past --busy-timeout, or a query ran past --timeout; 130 `draft wizard` stopped by \
            Ctrl-C (the draft is kept). Errors are one line on \
            stderr, starting with "error:".
            """,
        subcommands: [ItemsCommand.self, DraftCommand.self, MigrateCommand.self, QueryCommand.self,
                      BackupCommand.self, RestoreCommand.self, CheckCommand.self,
                      ImportCommand.self, ExportCommand.self]
    )
}
