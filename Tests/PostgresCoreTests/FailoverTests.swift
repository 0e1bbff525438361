import Foundation
import PostgresCore
import StockroomTestSupport
import Testing

/// The failover scenario at the core level: a primary and a synchronous streaming
/// standby on loopback, writers inserting through one multi-host URI, the primary killed with
/// SIGKILL mid-run, the standby promoted, the writers carrying on through the same URI. Every
/// insert whose COMMIT was acknowledged must be on the new primary.
@Suite(.serialized) struct FailoverTests {
    static let writerCount = 4
    static let rowsBeforeKill = 400
    static let rowsAfterPromotion = 400
    static let deadline: DispatchTime = .now() + 300

    /// What one writer saw.
    struct WriterLog: Sendable {
        var acknowledged: [Int] = []
        var failedDuringSwitch = 0
        var failureKinds: Set<String> = []
        var hostsAfterFailure: Set<String> = []
        var sawFailure = false
    }

    @Test func everyAcknowledgedInsertIsOnThePromotedStandby() throws {
        let primary = try PostgresServer(label: "primary", tcp: true,
                                         startOptions: ["synchronous_standby_names": "'*'"])
        defer { primary.stop() }
        let standby = try PostgresServer.standby(of: primary)
        defer { standby.stop() }

        let setup = try Connection(primary.tcpURI())
        // Commits on the primary now wait for the standby to flush them: this one returns only
        // once the standby is connected and streaming.
        try setup.execute("CREATE TABLE writes (writer integer NOT NULL, seq integer NOT NULL, PRIMARY KEY (writer, seq))")
        #expect(try setup.query("SELECT sync_state FROM pg_stat_replication").scalar(String.self) == "sync")

        let uri = "postgresql://\(PostgresServer.superuser)@\(primary.tcpAddress),\(standby.tcpAddress)/postgres"
            + "?target_session_attrs=read-write&connect_timeout=5"
        let logs = (0..<Self.writerCount).map { _ in Locked(WriterLog()) }
        let stop = Locked(false)
        let acknowledgement = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for writer in 0..<Self.writerCount {
            finished.enter()
            let log = logs[writer]
            Thread.detachNewThread {
                Self.write(as: writer, uri: uri, log: log, stop: stop, acknowledgement: acknowledgement)
                finished.leave()
            }
        }
        func waitForAcknowledgements(_ count: Int) -> Bool {
            for _ in 0..<count where acknowledgement.wait(timeout: Self.deadline) == .timedOut { return false }
            return true
        }

        let beforeKillReached = waitForAcknowledgements(Self.rowsBeforeKill)
        try primary.kill()
        let acknowledgedBeforeKill = logs.reduce(0) { $0 + $1.current.acknowledged.count }
        try standby.promote()
        let afterPromotionReached = waitForAcknowledgements(Self.rowsAfterPromotion)
        stop.withValue { $0 = true }
        finished.wait()
        #expect(beforeKillReached, "writers acknowledged \(Self.rowsBeforeKill) rows before the kill")
        #expect(afterPromotionReached, "writers carried on through the same URI after the promotion")

        let survivor = try Connection(standby.tcpURI())
        #expect(try survivor.query("SELECT pg_is_in_recovery()").scalar(Bool.self) == false)
        var stored: [Int: Set<Int>] = [:]
        for row in try survivor.query("SELECT writer, seq FROM writes") {
            stored[try row.get(Int.self, at: 0), default: []].insert(try row.get(Int.self, at: 1))
        }
        var acknowledged = 0, failed = 0, lost = 0
        var kinds: Set<String> = [], hosts: Set<String> = []
        for (writer, log) in logs.enumerated() {
            let seen = log.current
            acknowledged += seen.acknowledged.count
            failed += seen.failedDuringSwitch
            kinds.formUnion(seen.failureKinds)
            hosts.formUnion(seen.hostsAfterFailure)
            lost += seen.acknowledged.filter { !(stored[writer]?.contains($0) ?? false) }.count
            #expect(seen.sawFailure, "writer \(writer) was cut off by the kill")
        }
        print("failover: \(acknowledged) inserts acknowledged (\(acknowledgedBeforeKill) before the kill), "
              + "\(failed) failed during the switch (\(kinds.sorted().joined(separator: ", "))), \(lost) lost")
        #expect(lost == 0)
        #expect(hosts == ["127.0.0.1:\(standby.port)"], "after the failure every writer reached the standby")
        #expect(acknowledged >= Self.rowsBeforeKill + Self.rowsAfterPromotion)
    }

    /// One writer: inserts (writer, 1), (writer, 2), ... one autocommit statement each,
    /// reconnecting through the multi-host URI when its connection breaks. A failed insert is
    /// not retried with the same number: its outcome may be unknown.
    static func write(as writer: Int, uri: String, log: Locked<WriterLog>, stop: Locked<Bool>,
                      acknowledgement: DispatchSemaphore) {
        var connection: Connection?
        var seq = 0
        while !stop.current {
            seq += 1
            do {
                if connection == nil {
                    connection = try Connection(uri)
                    if log.current.sawFailure, let connection {
                        log.withValue { _ = $0.hostsAfterFailure.insert("\(connection.host):\(connection.port)") }
                    }
                }
                try connection!.run("INSERT INTO writes VALUES ($1, $2)", writer, seq)
                log.withValue { $0.acknowledged.append(seq) }
                acknowledgement.signal()
            } catch {
                let kind = (error as? PostgresError).map { "\($0.kind)" } ?? "\(error)"
                log.withValue {
                    $0.failedDuringSwitch += 1
                    _ = $0.failureKinds.insert(kind)
                    $0.sawFailure = true
                }
                if connection?.isConnected != true { connection = nil }
            }
        }
    }
}
