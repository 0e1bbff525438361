import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// libpq's conventions, against a real server started here: password authentication with
/// scram-sha-256 (the password in the URI, in a `PGPASSFILE`, with a service file), and TLS with
/// `sslmode=require` and `sslmode=verify-full` against a certificate made with `openssl`. A
/// refused login or an untrusted certificate is exit 75 with one `error:` line that never
/// holds the password.
@Suite(.serialized) struct PostgresAuthenticationTests {
    static let password = "Sc7am-Pa55-word"

    /// One TLS server for the suite: `ann` logs in with a password only (scram-sha-256), on the
    /// socket and on 127.0.0.1 with or without TLS; the harness's superuser keeps `trust`.
    final class Fixture: @unchecked Sendable {
        let folder = TemporaryDirectory()
        let certificates: TestCertificates
        let server: PostgresServer

        init() throws {
            certificates = try TestCertificates(in: folder)
            server = try PostgresServer(label: "auth", tcp: true, startOptions: [
                "ssl": "on", "ssl_cert_file": "'server.crt'", "ssl_key_file": "'server.key'",
                "password_encryption": "'scram-sha-256'",
            ], dataFiles: [
                "server.crt": certificates.serverCertificate, "server.key": certificates.serverKey,
                "pg_hba.conf": """
                    local   all  \(PostgresServer.superuser)  trust
                    host    all  \(PostgresServer.superuser)  127.0.0.1/32  trust
                    local   all  all                          scram-sha-256
                    host    all  ann                          127.0.0.1/32  scram-sha-256
                    host    all  ann                          ::1/128       scram-sha-256

                    """,
            ])
            let made = try server.psql("CREATE ROLE ann LOGIN PASSWORD '\(PostgresAuthenticationTests.password)'; CREATE DATABASE shop OWNER ann;")
            guard made.status == 0 else { throw FixtureError(made.description) }
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let shared = Result { try Fixture() }
    var fixture: Fixture { get throws { try Self.shared.get() } }

    /// Runs stockroom against `uri` with no password from the environment but `environment`'s
    /// (`PGPASSFILE` pointing nowhere unless given, so a ~/.pgpass cannot help).
    func stockroom(_ arguments: [String], uri: String, environment: [String: String] = [:]) throws -> ProcessResult {
        let folder = try fixture.folder
        let base = ["STOCKROOM_DB": uri, "PGPASSFILE": folder.path("no-pgpass"), "PGPASSWORD": "", "PGSERVICEFILE": folder.path("no-service")]
        return try Processes.stockroom(arguments, environment: base.merging(environment) { $1 }, timeoutSeconds: 120)
    }

    func expectNoPassword(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.stderr.contains(Self.password) && !result.stdout.contains(Self.password), "\(result)", sourceLocation: sourceLocation)
    }

    @Test func thePasswordInTheURILogsIn() throws {
        let port = try fixture.server.port
        let result = try stockroom(["items", "add", "--name", "Mug"], uri: "postgresql://ann:\(Self.password)@127.0.0.1:\(port)/shop")
        #expect(result.status == 0, "\(result)")
        expectNoPassword(result)
    }

    @Test func aPasswordFileLogsIn() throws {
        let fixture = try fixture
        let passwordFile = fixture.folder.path("pgpass")
        try Data("127.0.0.1:\(fixture.server.port):shop:ann:\(Self.password)\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        #expect(chmod(passwordFile, 0o600) == 0)
        let uri = "postgresql://ann@127.0.0.1:\(fixture.server.port)/shop"
        let result = try stockroom(["items", "list"], uri: uri, environment: ["PGPASSFILE": passwordFile])
        #expect(result.status == 0, "\(result)")
        // Without it the same URI has no password: the server refuses the login.
        let refused = try stockroom(["items", "list"], uri: uri)
        expectFailure(refused, code: .busy, mentioning: "password")
    }

    @Test func aServiceFileNamesTheServer() throws {
        let fixture = try fixture
        let serviceFile = fixture.folder.path("pg_service.conf"), passwordFile = fixture.folder.path("pgpass-service")
        try Data("""
            [stockroom-shop]
            host=127.0.0.1
            port=\(fixture.server.port)
            dbname=shop
            user=ann
            sslmode=require

            """.utf8).write(to: URL(fileURLWithPath: serviceFile))
        try Data("*:*:shop:ann:\(Self.password)\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        #expect(chmod(passwordFile, 0o600) == 0)
        let result = try stockroom(["query", "SELECT current_user, ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", "--format", "csv"],
                                   uri: "postgresql://?service=stockroom-shop",
                                   environment: ["PGSERVICEFILE": serviceFile, "PGPASSFILE": passwordFile])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["current_user,ssl", "ann,true"], "\(result)")
    }

    @Test func sslmodeRequireEncrypts() throws {
        let port = try fixture.server.port
        let result = try stockroom(["query", "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", "--format", "csv"],
                                   uri: "postgresql://ann:\(Self.password)@127.0.0.1:\(port)/shop?sslmode=require")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["ssl", "true"], "\(result)")
    }

    @Test(arguments: ["localhost", "127.0.0.1"])
    func sslmodeVerifyFullAcceptsTheServerTheAuthoritySigned(host: String) throws {
        let fixture = try fixture
        let uri = "postgresql://ann:\(Self.password)@\(host):\(fixture.server.port)/shop?sslmode=verify-full&sslrootcert=\(fixture.certificates.authorityCertificatePath)"
        let result = try stockroom(["items", "list"], uri: uri)
        #expect(result.status == 0, "\(result)")
    }

    @Test func aWrongPasswordIsOneLineWithoutThePassword() throws {
        let port = try fixture.server.port
        let wrong = "Wr0ng-Guess-xyz"
        for uri in ["postgresql://ann:\(wrong)@127.0.0.1:\(port)/shop", "postgresql://ann@127.0.0.1:\(port)/shop?password=\(wrong)"] {
            let result = try stockroom(["items", "list"], uri: uri)
            expectFailure(result, code: .busy, mentioning: "password authentication failed")
            #expect(!result.stderr.contains(wrong), "\(result)")
            #expect(result.errorMessage.contains("***"), "the URI is shown redacted: \(result)")
        }
    }

    @Test func anUntrustedCertificateIsOneLineWithoutThePassword() throws {
        let fixture = try fixture
        let stranger = try TestCertificates(in: fixture.folder, name: "Someone else's CA")
        let uri = "postgresql://ann:\(Self.password)@localhost:\(fixture.server.port)/shop?sslmode=verify-full&sslrootcert=\(stranger.authorityCertificatePath)"
        let result = try stockroom(["items", "list"], uri: uri)
        expectFailure(result, code: .busy, mentioning: "certificate verify failed")
        expectNoPassword(result)
    }
}
