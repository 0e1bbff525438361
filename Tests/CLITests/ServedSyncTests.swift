import Foundation
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom sync --hub http(s)://…` through a real `stockroom serve` (issue 36): what only a
/// server hub has. Tokens, a read-only server, the protocol's refusals of a malformed batch, a
/// server killed mid-batch, HTTPS through a TLS proxy, versions, and a pushed change seen live.
/// The rules' results through a server are SyncCommandTests' own, run on the served kinds.
@Suite struct ServedSyncTests {
    typealias World = SyncCommandTests.World

    /// `stockroom serve` started by a test with its own arguments and environment.
    static func serve(_ hub: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (BackgroundProcess, String, Int) {
        let server = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", hub, "--port", "0"] + arguments, environment: environment)
        let printed = try #require(server.readLine())
        let url = String(printed.prefix { $0 != "?" })
        let port = Int(url.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0
        return (server, url, port)
    }

    static func port(of url: String) -> Int {
        Int(url.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0
    }

    static let token = "sync-token-0123456789abcdef"

    /// The token in a file only its owner reads, as a server and a replica are given it.
    static func tokenFile(in world: World) throws -> String {
        let path = world.directory.path("token")
        try (token + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }
    static var bearer: [String: String] { ["Authorization": "Bearer \(token)"] }

    @Test("A server hub needs a token, on loopback too: none, a wrong one or a server without one exits 77 with nothing changed; STOCKROOM_TOKEN works; a token file others can read gets a warning")
    func tokens() throws {
        let world = try World(.servedFile)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Twine", quantity: 3)
        let before = try DatabaseSnapshot.of(stall)

        let missing = try world.run(stall, arguments: ["sync", "--hub", world.hubArgument])
        expectFailure(missing, code: .noPermission, mentioning: "needs a token")
        let wrongFile = world.directory.path("wrong")
        try "not-the-token-0123456789\n".write(toFile: wrongFile, atomically: true, encoding: .utf8)
        chmod(wrongFile, 0o600)
        let wrong = try world.run(stall, arguments: ["sync", "--hub", world.hubArgument, "--token-file", wrongFile])
        expectFailure(wrong, code: .noPermission, mentioning: "refused the token")
        #expect(try DatabaseSnapshot.of(stall) == before, "a refused sync changed the replica")
        #expect(try DatabaseSnapshot.of(world.hub).contains("Twine") == false)

        let fromEnvironment = try world.run(stall, arguments: ["sync", "--hub", world.hubArgument, "--format", "json"],
                                            environment: ["STOCKROOM_TOKEN": Self.token])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
        #expect(fromEnvironment.stdout.contains("\"pushed\":1"), "\(fromEnvironment)")

        let readable = world.directory.path("readable")
        try (Self.token + "\n").write(toFile: readable, atomically: true, encoding: .utf8)
        chmod(readable, 0o644)
        let warned = try world.run(stall, arguments: ["sync", "--token-file", readable])
        #expect(warned.status == 0, "\(warned)")
        #expect(warned.stderr.hasPrefix("warning: the token file \(readable) can be read by other users (mode 644)"), "\(warned)")

        // A server started without a token answers pages, and refuses sync.
        let (open, url, port) = try Self.serve(world.hub, [])
        defer { _ = open }
        #expect(try RawHTTP.request(port: port, "GET", "/api/items").status == 200)
        let other = world.replica("other")
        _ = try world.add(other, "Wick", quantity: 1)
        let otherBefore = try DatabaseSnapshot.of(other)
        let refused = try world.run(other, arguments: ["sync", "--hub", url, "--token-file", world.tokenArguments[1]])
        expectFailure(refused, code: .noPermission, mentioning: "sync always needs one")
        #expect(try DatabaseSnapshot.of(other) == otherBefore)
    }

    @Test("A read-only server lets replicas pull but not push: a push exits 77 with the replica unchanged, and a batch posted to it gets 405")
    func readOnlyServer() throws {
        let world = try World(.file)
        let id = try world.add(world.hub, "Ladder", quantity: 2)
        let tokenFile = try Self.tokenFile(in: world)
        let (server, url, port) = try Self.serve(world.hub, ["--read-only", "--token-file", tokenFile])
        defer { _ = server }
        let stall = world.replica("stall")
        let pulled = try world.run(stall, arguments: ["sync", "--hub", url, "--token-file", tokenFile])
        #expect(pulled.status == 0, "\(pulled)")
        #expect(try world.quantity(stall, id) == 2)

        #expect(try world.run(stall, "items", "adjust", id, "--by", "-1").status == 0)
        let before = try DatabaseSnapshot.of(stall)
        let refused = try world.run(stall, arguments: ["sync", "--token-file", tokenFile])
        expectFailure(refused, code: .noPermission, mentioning: "read-only")
        #expect(refused.errorMessage.contains("1 change waits"), "\(refused)")
        #expect(try DatabaseSnapshot.of(stall) == before)
        let posted = try RawHTTP.request(port: port, "POST", "/api/sync/batches", headers: Self.bearer.merging(["Content-Type": "application/json"]) { $1 }, body: "{}")
        #expect(posted.status == 405, "\(posted)")
        #expect(try world.quantity(world.hub, id) == 2)
    }

    /// A batch document of `stall`'s waiting intents, as a replica sends it: its outbox rows,
    /// read with the sqlite3 shell in the protocol's column order.
    static func batch(of stall: String, schemaVersion: Int, replica: String? = nil, rows transform: ([String]) -> [String] = { $0 }) throws -> String {
        let names = try Processes.sqlite3(stall, "SELECT name FROM pragma_table_info('sync_intents') ORDER BY cid").output.split(separator: "\n").map(String.init)
        let columns = ["sequence", "id", "made_at", "kind", "adjust_by", "last_pulled_position", "conflict_id", "choice", "item_id"]
            + names.filter { $0.hasPrefix("copy_") } + ["item_id"] + names.filter { $0.hasPrefix("to_") }
        let select = "SELECT json_array(\(columns.map { "CAST(\($0) AS TEXT)" }.joined(separator: ", "))) FROM sync_intents ORDER BY sequence"
        let rows = try Processes.sqlite3(stall, select).output.split(separator: "\n").map(String.init)
        let id = try replica ?? Processes.sqlite3(stall, "SELECT replica_id FROM sync_replica").output
        let place = try Processes.sqlite3(stall, "SELECT json_object('machine', machine_id, 'path', path) FROM sync_replica").output.dropFirst().dropLast()
        let columnList = columns.map { "\"\($0)\"" }.joined(separator: ",")
        return "{\"replica\":\"\(id)\",\(place),\"schemaVersion\":\(schemaVersion),\"columns\":[\(columnList)],\"intents\":[\(transform(rows).joined(separator: ","))]}"
    }

    @Test("The protocol is strict: a malformed, cut-short, oversized, unknown or other-version batch gets a 4xx problem with nothing applied; a retried batch applies once")
    func strictBatches() throws {
        let world = try World(.servedFile)
        let port = Self.port(of: world.hubArgument)
        let stall = world.replica("stall"), van = world.replica("van")
        try world.sync(stall)
        try world.sync(van)
        let vanID = try Processes.sqlite3(van, "SELECT replica_id FROM sync_replica").output
        let id = try world.add(stall, "Bolt", quantity: 9)
        #expect(try world.run(stall, "items", "adjust", id, "--by", "-2").status == 0)
        let info = try RawHTTP.request(port: port, "GET", "/api/sync", headers: Self.bearer)
        #expect(info.status == 200, "\(info)")
        let document = try JSONSerialization.jsonObject(with: Data(info.body.utf8)) as? [String: Any] ?? [:]
        let version = try #require(document["schemaVersion"] as? Int)
        #expect(document["largestBatch"] as? Int == 500 && document["readOnly"] as? Bool == false, "\(document)")
        let hubBefore = try Processes.sqlite3(world.hub, "SELECT count(*) FROM sync_applied").output + DatabaseSnapshot.of(world.hub)

        func post(_ body: String, headers: [String: String] = Self.bearer) throws -> RawHTTP.Response {
            try RawHTTP.request(port: port, "POST", "/api/sync/batches", headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: body)
        }
        func expectProblem(_ response: RawHTTP.Response, _ status: Int, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
            #expect(response.headers["content-type"] == "application/problem+json", "\(response)", sourceLocation: sourceLocation)
            #expect(response.body.contains(text), "\(response)", sourceLocation: sourceLocation)
        }
        let good = try Self.batch(of: stall, schemaVersion: version)
        expectProblem(try post(good, headers: [:]), 401, mentioning: "token")
        expectProblem(try post("{\"replica\":"), 400, mentioning: "not a sync batch document")
        expectProblem(try post("[1,2,3]"), 400, mentioning: "not a sync batch document")
        expectProblem(try post(try Self.batch(of: stall, schemaVersion: version - 1)), 409, mentioning: "schema version \(version - 1) and this hub at \(version)")
        expectProblem(try post(good.replacingOccurrences(of: "\"made_at\"", with: "\"madeAt\"")), 400, mentioning: "columns are not this hub's")
        expectProblem(try post(try Self.batch(of: stall, schemaVersion: version) { $0.map { String($0.dropLast()) + ",null]" } }), 400, mentioning: "values for")
        expectProblem(try post(try Self.batch(of: stall, schemaVersion: version) { $0.map { $0.replacingOccurrences(of: "\"adjust\"", with: "\"bogus\"") } }),
                      422, mentioning: "does not decode")
        expectProblem(try post(try Self.batch(of: stall, schemaVersion: version) { rows in Array(repeating: rows[0], count: 501) }), 413, mentioning: "at most 500")
        expectProblem(try post(try Self.batch(of: stall, schemaVersion: version, replica: "NOT-A-UUID")), 400, mentioning: "is not a lowercase UUID")
        // Another replica's origin: the van registered elsewhere (another path), so a batch of
        // the stall's intents under the van's id is refused.
        expectProblem(try post(try Self.batch(of: stall, schemaVersion: version, replica: vanID)), 409, mentioning: "cannot push under another's origin")
        // Cut short: the connection closes before the Content-Length it announced.
        let head = "POST /api/sync/batches HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(Self.token)\r\nContent-Type: application/json\r\nContent-Length: \(good.utf8.count)\r\n\r\n"
        let cut = RawHTTP.parse(try RawHTTP.exchange(port: port, Array((head + good.prefix(good.count / 2)).utf8)))
        #expect(cut.status == 400 || cut.status == 0, "\(cut)")
        #expect(try Processes.sqlite3(world.hub, "SELECT count(*) FROM sync_applied").output + DatabaseSnapshot.of(world.hub) == hubBefore,
                "a refused batch applied something")

        let first = try post(good)
        #expect(first.status == 200, "\(first)")
        #expect(first.body.contains("\"applied\":2") && first.body.contains("\"alreadyApplied\":0"), "\(first)")
        let retried = try post(good)
        #expect(retried.body.contains("\"applied\":0") && retried.body.contains("\"alreadyApplied\":2"), "\(retried)")
        #expect(try world.quantity(world.hub, id) == 7, "the add and the sale, once each")
        #expect(try world.sync(stall, hub: false)["pushed"] == 0, "the replica's own push finds them applied")
        #expect(try world.export(stall) == world.export(world.hub))
    }

    @Test("A server killed after committing a batch, before answering: the replica exits 75 keeping every change; after a restart each intent is applied once", arguments: [false, true])
    func serverKilledMidBatch(postgres: Bool) throws {
        let world = try World(postgres ? .postgres : .file)
        let tokenFile = try Self.tokenFile(in: world)
        let stall = world.replica("stall")
        var ids: [String] = []
        for number in 1...4 { ids.append(try world.add(stall, "Crate \(number)", quantity: number)) }
        let (dying, url, _) = try Self.serve(world.hub, ["--token-file", tokenFile], environment: ["STOCKROOM_SYNC_KILL_AT": "after-hub-commit"])
        let broken = try world.run(stall, arguments: ["sync", "--hub", url, "--token-file", tokenFile])
        expectFailure(broken, code: .busy, mentioning: "every change not yet pushed waits")
        #expect(dying.wait().status == 128 + SIGKILL)
        #expect(try world.run(stall, "sync", "status", "--format", "json").stdout.contains("\"pending\":4"))
        #expect(try world.export(world.hub).count == 4, "the server had committed the batch")

        let (server, newURL, _) = try Self.serve(world.hub, ["--token-file", tokenFile])
        defer { _ = server }
        let again = try world.run(stall, arguments: ["sync", "--hub", newURL, "--token-file", tokenFile, "--format", "json"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("\"pushed\":0") && again.stdout.contains("\"pending\":0"), "applied before, not again: \(again)")
        for (number, id) in ids.enumerated() { #expect(try world.quantity(world.hub, id) == number + 1) }
        #expect(try world.export(stall) == world.export(world.hub))
    }

    @Test("HTTPS through a TLS proxy: trusted with --ca-file for a private CA; without it the certificate is refused, exit 75, nothing changed")
    func httpsThroughAProxy() throws {
        let world = try World(.file)
        let tokenFile = try Self.tokenFile(in: world)
        let certificates = try TestCertificates(in: world.directory)
        let certificate = world.directory.path("server.crt"), key = world.directory.path("server.key")
        try certificates.serverCertificate.write(toFile: certificate, atomically: true, encoding: .utf8)
        try certificates.serverKey.write(toFile: key, atomically: true, encoding: .utf8)
        let script = Processes.packageRoot.appending(path: "Tests/Tools/tls_proxy.py").path
        let proxy = try BackgroundProcess("/usr/bin/python3", [script, certificate, key])
        let proxyPort = try #require(proxy.readLine().flatMap { Int($0) })
        // The proxy passes the Host the replica sent: the server accepts it by name, as one
        // behind a reverse proxy does (docs/web.md).
        let (server, _, serverPort) = try Self.serve(world.hub, ["--token-file", tokenFile, "--allowed-host", "localhost:\(proxyPort)"])
        defer { _ = server }
        proxy.write("\(serverPort)\n")

        let stall = world.replica("stall")
        let id = try world.add(stall, "Lens", quantity: 1)
        let before = try DatabaseSnapshot.of(stall)
        let untrusted = try world.run(stall, arguments: ["sync", "--hub", "https://localhost:\(proxyPort)/", "--token-file", tokenFile])
        expectFailure(untrusted, code: .busy, mentioning: "--ca-file")
        #expect(try DatabaseSnapshot.of(stall) == before)

        let trusted = try world.run(stall, arguments: ["sync", "--hub", "https://localhost:\(proxyPort)/", "--token-file", tokenFile,
                                                       "--ca-file", certificates.authorityCertificatePath, "--format", "json"])
        #expect(trusted.status == 0, "\(trusted)")
        #expect(trusted.stdout.contains("\"pushed\":1"), "\(trusted)")
        #expect(try world.quantity(world.hub, id) == 1)
    }

    @Test("A server of another protocol or schema version, or one that is not a hub, is refused in one line naming both versions, with nothing changed")
    func versionsRefused() throws {
        let world = try World(.file)
        let tokenFile = try Self.tokenFile(in: world)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Sieve", quantity: 2)
        let version = try Processes.sqlite3(stall, "SELECT max(version) FROM schema_migrations").output
        let before = try DatabaseSnapshot.of(stall)
        let script = Processes.packageRoot.appending(path: "Tests/Tools/fake_hub.py").path
        let hubID = "00000000-0000-4000-8000-000000000001"
        let cases: [(document: String?, mentioning: [String])] = [
            ("{\"hub\":\"\(hubID)\",\"protocolVersion\":2,\"schemaVersion\":\(version),\"largestBatch\":500,\"readOnly\":false}",
             ["protocol version 2", "this replica version 1"]),
            ("{\"hub\":\"\(hubID)\",\"protocolVersion\":1,\"schemaVersion\":99,\"largestBatch\":500,\"readOnly\":false}",
             ["schema version 99", "this replica at \(version)"]),
            (nil, ["does not answer Stockroom's sync protocol"]),
        ]
        for (document, texts) in cases {
            let fake = try BackgroundProcess("/usr/bin/python3", [script] + (document.map { [$0] } ?? []))
            let port = try #require(fake.readLine())
            let refused = try world.run(stall, arguments: ["sync", "--hub", "http://127.0.0.1:\(port)/", "--token-file", tokenFile])
            expectFailure(refused, code: .dataError)
            for text in texts { #expect(refused.errorMessage.contains(text), "\(refused)") }
            #expect(try DatabaseSnapshot.of(stall) == before)
        }
    }

    @Test("A server that answers 5xx exits 75 naming its words, with every change kept; `sync status` shows the server's URL without reaching it")
    func serverErrorKeepsEverything() throws {
        let world = try World(.servedFile)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Hinge", quantity: 6)
        try world.sync(stall)
        _ = try world.add(stall, "Latch", quantity: 2)
        let script = Processes.packageRoot.appending(path: "Tests/Tools/fake_hub.py").path
        let failing = try BackgroundProcess("/usr/bin/python3", [script, "503"])
        let port = try #require(failing.readLine())
        let before = try DatabaseSnapshot.of(stall)
        let refused = try world.run(stall, arguments: ["sync", "--hub", "http://127.0.0.1:\(port)/"] + world.tokenArguments)
        expectFailure(refused, code: .busy, mentioning: "failed (HTTP 503): the database is not reachable")
        #expect(try DatabaseSnapshot.of(stall) == before)
        let status = try world.run(stall, "sync", "status", "--format", "json")
        #expect(status.stdout.contains("\"hub\":\"\(world.hubArgument)\"") && status.stdout.contains("\"pending\":1"), "\(status)")
        #expect(try world.sync(stall, hub: false)["pushed"] == 1)
    }

    @Test("A change pushed from a replica is on the hub's GET /api/events within 1 s, carrying its origin")
    func pushedChangeIsLive() throws {
        let world = try World(.servedFile)
        let port = Self.port(of: world.hubArgument)
        let stall = world.replica("stall")
        try world.sync(stall)
        let replica = try Processes.sqlite3(stall, "SELECT replica_id FROM sync_replica").output
        let stream = try RawHTTP.EventStream(port: port, path: "/api/events", headers: Self.bearer)
        #expect(stream.readHead(before: .now + .seconds(30)))
        let id = try world.add(stall, "Kite", quantity: 1)
        try world.sync(stall)
        let synced = ContinuousClock.now
        let events = stream.read(count: 1, before: synced + .seconds(1))
        let event = try #require(events.first, "no event within 1 s of the sync: \(stream.text)")
        #expect(event.data.contains(id) && event.data.contains("\"origin\":\"\(replica)\""), "\(event)")
    }
}
