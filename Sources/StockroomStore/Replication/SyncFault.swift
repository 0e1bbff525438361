import Glibc

/// Named points of a sync where a test stops the process: the moments a fault could lose or
/// duplicate an intent if the design let it. `STOCKROOM_SYNC_KILL_AT=POINT` kills the process
/// there with SIGKILL; `STOCKROOM_SYNC_PAUSE_AT=POINT` prints `paused at POINT` on stdout and
/// waits for a line on stdin, while the test stops the hub or moves its file.
package enum SyncFault: String, Sendable {
    /// The hub committed a batch; the replica has not yet removed it from its outbox.
    case afterHubCommit = "after-hub-commit"
    /// The push ended (the outbox emptied of what the hub applied); the pull has not begun.
    case afterPush = "after-push"
    /// The pull wrote the hub's rows into the replica's transaction, not yet committed.
    case pullWritten = "pull-written"

    /// Kills or pauses the process when the environment names `point`.
    static func pass(_ point: SyncFault) {
        if let asked = getenv("STOCKROOM_SYNC_KILL_AT"), String(cString: asked) == point.rawValue {
            kill(getpid(), SIGKILL)
        }
        if let asked = getenv("STOCKROOM_SYNC_PAUSE_AT"), String(cString: asked) == point.rawValue {
            StandardStream.write("paused at \(point.rawValue)\n", to: 1)
            var byte: UInt8 = 0
            while read(0, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
        }
    }
}
