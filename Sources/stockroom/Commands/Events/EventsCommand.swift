import ArgumentParser
import Glibc
import Inventory
import StockroomStore

/// `stockroom events`: the history of every item in commit order, and with `--follow` as it
/// is committed, by anyone.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print every item's history in commit order; with --follow, as it is committed.",
        discussion: """
            Each event has a position: 1, 2, 3, ... in commit order, without gaps. --after N \
            prints the events after position N, so a script that remembers the last position \
            it handled resumes without missing or repeating one. JSON Lines (the default) prints \
            each event as one object: position, then what `items history --format json` prints \
            for it. --follow keeps printing as commits happen, from any process (another \
            stockroom, stockroom-serve, sqlite3, psql), each line flushed at once; it is woken \
            by the commit itself, not by a timer (docs/observation.md). It ends with status \
            \(Failure.Code.success.rawValue) on Ctrl-C, SIGTERM or when its reader closes the pipe \
            (`stockroom events --follow | head -3`). It ends with exit \
            \(Failure.Code.historyGone.rawValue) when the history it follows is gone: replaced by \
            `restore`, or the file deleted or replaced; with exit \(Failure.Code.notFound.rawValue) \
            when there is no database to follow. Reading is all it does: a file the user may \
            not write can be followed.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("Print the events after this position (0: from the first).", valueName: "position"))
    var after: Int64 = 0

    @Flag(help: "Keep printing events as they are committed, until interrupted.")
    var follow = false

    @Option(help: "Output format: jsonl, one JSON object per line; table, fixed columns.")
    var format: EventFormat = .jsonl

    /// How events are printed.
    enum EventFormat: String, CaseIterable, ExpressibleByArgument {
        /// One JSON object per line.
        case jsonl
        /// Fixed columns under a header.
        case table
    }

    func validate() throws {
        if after < 0 { throw ValidationError("--after must be a position: 0 or more") }
    }

    func run() throws {
        guard follow else {
            let store = try database.openStoreForReading(.itemHistoryPositions)
            var output = EventOutput(format: format, names: store)
            let last = try store.items.lastEventPosition()
            guard after <= last else {
                throw ObservationError.positionBeyondHistory(path: database.resolvedLocation().description, position: after, last: last)
            }
            var position = after
            while true {
                let page = try store.items.events(after: position, limit: 1_000)
                guard let last = page.last else { break }
                guard try output.write(page) else { return }
                position = last.position
            }
            return
        }
        let stop = EventFollowing.stopOnSignalsAndClosedOutput()
        let follower = try HistoryFollower(location: database.resolvedLocation(), after: after,
                                           busyTimeout: .milliseconds(database.busyTimeoutMilliseconds), stopSignal: stop)
        // The names of items whose naming event came before `--after`: read from a store of
        // its own, opened only for the table, which JSON Lines does not need.
        var output = EventOutput(format: format, names: format == .table ? try database.openStoreForReading(.itemHistoryPositions) : nil)
        while true {
            let page = try follower.next()
            // Empty: stopped by a signal or a closed pipe; a failed write: the reader is gone.
            guard !page.isEmpty, try output.write(page) else { return }
        }
    }
}

/// Prints events, one line each, written out per page.
struct EventOutput {
    let format: EventsCommand.EventFormat
    /// Where the table reads the name of an item whose naming event it has not printed.
    private let store: InventoryStore?
    /// Each item's name as of the last event printed: the table shows it beside the id, whose
    /// short form alone may not tell items apart.
    private var names: [Item.ID: String] = [:]

    init(format: EventsCommand.EventFormat, names store: InventoryStore?) {
        self.format = format
        self.store = store
        if format == .table { EventOutput.emit(Presentation.eventHeader + "\n") }
    }

    /// Writes and flushes `events`; false when standard output is closed (a reader gone).
    mutating func write(_ events: [PositionedItemEvent]) throws -> Bool {
        var text = ""
        for event in events {
            switch format {
            case .jsonl: text += JSONPresentation.object(for: event)
            case .table:
                let recorded = event.recorded
                let name = try Presentation.nameGiven(by: recorded.event) ?? names[recorded.itemID]
                    ?? store?.items.name(id: recorded.itemID, atVersion: recorded.version)
                names[recorded.itemID] = name
                text += Presentation.eventLine(event, name: name)
            }
            text += "\n"
        }
        return EventOutput.emit(text)
    }

    /// write(2) itself: each page reaches the reader at once, and a closed pipe is noticed.
    @discardableResult
    private static func emit(_ text: String) -> Bool {
        StandardStream.write(text, to: STDOUT_FILENO)
    }
}

/// What ends `events --follow` quietly: SIGINT, SIGTERM, and standard output's reader
/// closing the pipe (noticed at once, not at the next write, which may be hours away).
enum EventFollowing {
    /// A stop signal stopped by any of them. Blocks SIGINT and SIGTERM in this thread (and
    /// the threads started after it) and takes them on a thread of its own with `sigwait`;
    /// ignores SIGPIPE so a write to a closed pipe fails instead of killing the process.
    static func stopOnSignalsAndClosedOutput() -> StopSignal {
        let stop = StopSignal()
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        // Taken by sigwait even when the parent left them ignored (a test runner does).
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        let blocked = signals
        DedicatedThread.start(name: "stockroom-events-signals") {
            var signals = blocked
            var received: Int32 = 0
            sigwait(&signals, &received)
            stop.stop()
        }
        DedicatedThread.start(name: "stockroom-events-output") {
            // No events asked for: poll reports only POLLERR/POLLHUP, which a pipe's write end
            // gets when its reader closes it. A file or terminal never reports them.
            var output = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while poll(&output, 1, -1) < 0 && errno == EINTR {}
            stop.stop()
        }
        return stop
    }
}
