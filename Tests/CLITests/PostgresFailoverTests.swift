import Foundation
import StockroomTestSupport
import Testing

/// The failover scenario with the real binary: a primary and a synchronous streaming
/// standby on loopback, writer processes running `stockroom items add` in loops through one
/// multi-host URI, the primary killed with SIGKILL mid-run, the standby promoted, the writers
/// carrying on through the same URI. Every item whose `items add` exited 0 must be on the new
/// primary; every command that failed meanwhile must have failed as documented: exit 75 and
/// one `error:` line, saying so when a commit's outcome is unknown.
@Suite(.serialized) struct PostgresFailoverTests {
    static let writerCount = 4
    static let acknowledgedBeforeKill = 80
    static let acknowledgedAfterPromotion = 80

    /// Each writer adds items until `$WORK/stop` exists, printing `ok ID` when `items add`
    /// exited 0, else `fail CODE LINES STDERR` (its stderr on one line, and how many lines it had).
    static let writersScript = """
        for w in $(seq 1 "$WRITERS"); do
            (
                i=0
                while [ ! -e "$WORK/stop" ]; do
                    i=$((i + 1))
                    if id=$("$STOCKROOM" items add --name "writer $w item $i" --quantity "$i" 2>"$WORK/err.$w"); then
                        echo "ok $id"
                    else
                        code=$?
                        echo "fail $code $(wc -l <"$WORK/err.$w") $(tr '\\n' ' ' <"$WORK/err.$w")"
                    fi
                done
            ) &
        done
        wait
        """

    @Test func everyAcknowledgedItemsAddIsOnThePromotedStandby() throws {
        let primary = try PostgresServer(label: "primary", tcp: true, startOptions: ["synchronous_standby_names": "'*'"])
        defer { primary.stop() }
        let standby = try PostgresServer.standby(of: primary)
        defer { standby.stop() }
        let work = TemporaryDirectory()
        let uri = "postgresql://\(PostgresServer.superuser)@\(primary.tcpAddress),\(standby.tcpAddress)/postgres"
            + "?target_session_attrs=read-write&connect_timeout=5"

        // Commits on the primary wait for the standby to flush them: `migrate up` returns only
        // once the standby is connected and streaming.
        let migrated = try Processes.stockroom(["migrate", "up"], environment: ["STOCKROOM_DB": uri])
        #expect(migrated.status == 0, "\(migrated)")
        #expect(try primary.psql("SELECT sync_state FROM pg_stat_replication").output == "sync")

        let writers = try BackgroundProcess("/bin/bash", ["-c", Self.writersScript], environment: [
            "STOCKROOM": Processes.stockroomPath, "STOCKROOM_DB": uri, "WORK": work.url.path,
            "WRITERS": String(Self.writerCount),
        ], deadlineSeconds: 900)
        var lines: [String] = []
        func readUntil(acknowledged wanted: Int) -> Bool {
            var count = 0
            while count < wanted, let line = writers.readLine() {
                lines.append(line)
                if line.hasPrefix("ok ") { count += 1 }
            }
            return count == wanted
        }

        let reachedBeforeKill = readUntil(acknowledged: Self.acknowledgedBeforeKill)
        try primary.kill()
        // Until the promotion no server accepts writes, so commands fail: wait for the first
        // failure before promoting, or a quick promotion could hide the switch entirely (the
        // commands cut off by the kill run again on the standby once promoted).
        var sawFailureBeforePromotion = false
        while !sawFailureBeforePromotion, let line = writers.readLine() {
            lines.append(line)
            sawFailureBeforePromotion = line.hasPrefix("fail ")
        }
        try standby.promote()
        let linesBeforePromotion = lines.count
        let reachedAfterPromotion = readUntil(acknowledged: Self.acknowledgedAfterPromotion)
        #expect(FileManager.default.createFile(atPath: work.path("stop"), contents: nil))
        let finished = writers.wait()
        lines += finished.lines
        #expect(finished.status == 0, "\(finished)")
        #expect(reachedBeforeKill, "writers acknowledged \(Self.acknowledgedBeforeKill) items before the kill")
        #expect(reachedAfterPromotion, "writers carried on through the same URI after the promotion")

        #expect(try standby.psql("SELECT pg_is_in_recovery()").output == "f")
        let stored = Set(try standby.psql("SELECT id FROM items").lines)
        let acknowledged = lines.filter { $0.hasPrefix("ok ") }.map { String($0.dropFirst(3)) }
        let failed = lines.filter { $0.hasPrefix("fail ") }
        let lost = acknowledged.filter { !stored.contains($0) }
        let unknownOutcome = failed.filter { $0.contains("may or may not have been saved") }
        print("failover (stockroom CLI): \(acknowledged.count) items add acknowledged, \(failed.count) failed during the switch "
              + "(\(unknownOutcome.count) with an unknown commit outcome), \(lost.count) lost")
        for message in Set(failed.map { $0.replacingOccurrences(of: "[0-9]+", with: "N", options: .regularExpression) }).sorted() {
            print("  \(message)")
        }
        #expect(lost.isEmpty, "acknowledged but not on the new primary: \(lost)")
        #expect(sawFailureBeforePromotion, "writers failed while no server accepted writes")
        // A failure during the switch is temporary (75), on one `error:` line, also when a
        // server dies while libpq is still establishing the connection (our notice processor is
        // installed before libpq reads a byte: see PostgresConnectTests).
        for line in failed {
            #expect(line.hasPrefix("fail 75 1 error: "), "\(line)")
        }
        // Items whose commit outcome was unknown may or may not be there; nothing else is.
        #expect(stored.count <= acknowledged.count + unknownOutcome.count)
        #expect(lines.count > linesBeforePromotion)
    }
}
