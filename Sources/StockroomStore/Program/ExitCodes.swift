extension Failure.Code {
    /// What the code means, in one line: `stockroom --help` prints it, and the table of
    /// docs/exit-codes.md must say the same, word for word (`ExitCodeDocumentationTests`).
    ///
    /// A new code: a case in ``Failure/Code`` with its number, its meaning here, and the same
    /// row in docs/exit-codes.md's table.
    package var meaning: String {
        switch self {
        case .success:
            "success"
        case .pending:
            "`migrate status --exit-code` found migrations not yet applied"
        case .versionConflict:
            "`items update` or `items adjust` with `--if-version N`: the item is no longer at version N (someone changed it since); nothing was changed. Re-read it (`items show`) and decide again"
        case .historyGone:
            "`events --follow`: the history being followed is gone: replaced by `restore` (positions may go backwards), or the database file deleted or replaced; `events --after N` past the last event. Follow again from the start (`--after 0`)"
        case .usage:
            "bad command line: unknown or conflicting flags, a malformed or ambiguous id, an invalid value, a name with a control character or made only of invisible characters, an argument that is not valid UTF-8, SQL that `query` refuses, `draft wizard` without a terminal on stdin and stdout, `backup` or `restore` on a PostgreSQL database (the server's own tools copy it: docs/postgresql.md, \"Backups on PostgreSQL\"); `sync` refused: no hub given for a file that is not yet a replica, a malformed hub, another hub than the replica's, a hub that is itself a replica or is the file itself, a hub file on a network filesystem, a PostgreSQL replica"
        case .dataError:
            "data that breaks a rule: saving a draft with a blank name, `items adjust` taking more than is in stock (\"only 2 in stock\"), bad rows in an `import` file (nothing imported), a row that does not decode, a database whose migrations cannot be trusted (edited, unknown/newer, gap) or that `migrate verify` finds off, a hub and a replica of different schema versions or sync protocol versions (`sync`: the message names both and the side to upgrade), a `sync --hub URL` that is not a Stockroom server, a failing migration, a query that fails while running, a SQLite file that is not a Stockroom database (any command but `query` and `check`), a write a PostgreSQL constraint refused"
        case .notFound:
            "the item or draft was not found, or there is no database file for a command that needs one (`query`, `check`, `backup`, `migrate verify`, `restore`'s source, `events --follow`); `draft wizard`: the draft was saved or cancelled by another process while a question waited"
        case .unavailable:
            "the PostgreSQL client library (libpq, Debian `libpq5`) could not be loaded, for a `postgresql://` database; SQLite files never need it; `serve` could not listen on the address and port asked for (in use, or not an address of this machine), or its program `stockroom-serve` is missing next to `stockroom` or cannot be run"
        case .software:
            "the process received no arguments at all, not even its own name (e.g. the static binary where `/proc` cannot be read): it does nothing rather than guess; `sync`: a server hub refused a request as malformed or too large, or answered what the sync protocol does not allow: a bug in stockroom (the message says so); every change not yet pushed is kept"
        case .cannotCreate:
            "`backup`/`restore`/`copy` would overwrite something without `--force` (DEST exists, the database holds data) or cannot create DEST"
        case .ioError:
            "the file is not a SQLite database, is corrupt, or cannot be read, opened, created or written (the message says which): the disk is full (\"the disk is full: SQLite could not write to FILE ...; nothing was changed\"), an I/O error, or a write past the file-size limit (`ulimit -f`; SIGXFSZ is ignored so the write fails with this line instead of killing the process); `copy` found DEST's rows, read back before committing, differ from SRC's (nothing committed)"
        case .busy:
            "a time limit ran out: the database stayed locked by another process past `--busy-timeout` (the message says how long it waited; nothing was changed, retry), or a `query` ran past `--timeout`; the PostgreSQL server could not be reached, did not answer within `connect_timeout` (default 10 s), refused the login (a wrong or missing password) or has a certificate that `sslmode=verify-full` does not trust, or the connection to it broke (the message says which; a refused login or certificate needs its setting fixed, not a retry); `sync`: the hub could not be reached, stayed locked or is missing (a drive not plugged in), a server hub answered 5xx, or another sync of the same replica is running; every change is kept for the next sync"
        case .noPermission:
            "`sync` with a server hub (`http://`, `https://`): no token was given (--token-file or STOCKROOM_TOKEN), the server refused it, or the server is read-only (`serve --read-only`) and changes wait to be pushed; nothing was synced, every change is kept"
        case .interrupted:
            "`draft wizard` stopped by Ctrl-C; the draft is kept (Ctrl-D and quit keep it too, with 0)"
        case .terminated:
            "`draft wizard` stopped by SIGTERM (`kill`, a session closing): the draft is kept and the line that resumes it printed, as with Ctrl-C"
        }
    }

    /// The "Exit codes" part of `stockroom --help`: every code and its meaning, in order.
    /// `wrapped`: under a hanging indent, for a terminal (ArgumentParser rewraps only lines
    /// wider than the terminal, and would not indent the continuation); else one line each,
    /// for the manual page, which man fills itself.
    package static func helpSection(wrapped: Bool) -> String {
        let indent = String(repeating: " ", count: 7)
        return "Exit codes:\n" + allCases.map { code in
            let number = "  \(code.rawValue)"
            let first = number + indent.dropFirst(number.count)
            return wrapped ? self.wrapped(code.meaning, after: first, continuation: indent, width: 79) : first + code.meaning
        }.joined(separator: "\n")
    }

    /// `text` broken at spaces into lines of at most `width` columns (a longer word stands
    /// alone): the first line starts with `prefix`, the others with `continuation`.
    private static func wrapped(_ text: String, after prefix: String, continuation: String, width: Int) -> String {
        var lines: [String] = []
        var line = prefix
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = continuation + word
            } else {
                line += (lineHasWord ? " " : "") + word
            }
            lineHasWord = true
        }
        return (lines + [line]).joined(separator: "\n")
    }
}
