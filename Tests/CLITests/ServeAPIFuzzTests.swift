import Foundation
import StockroomTestSupport
import Testing

/// The API fuzzed from its own OpenAPI document with schemathesis (PyPI; `scripts/setup.sh --tests`
/// installs it), at a small size and a fixed seed, against the real `stockroom serve`: no 5xx,
/// every status code, media type, header and body as the document says.
@Suite("serve API fuzzing") struct ServeAPIFuzzTests {
    @Test("schemathesis finds no server error and no answer the document does not describe")
    func fuzz() throws {
        let database = CLIDatabase()
        let server = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", database.path, "--port", "0"])
        let url = try #require(server.readLine())
        _ = try database.stockroom("items", "add", "--name", "Seed", "--color", "red")
        let checks = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance"
        let result = try PythonTools.run([
            "-c", "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())",
            "run", url + "api/openapi.json", "--checks", checks, "--max-examples", "5", "--seed", "1",
            "--phases", "examples,coverage,fuzzing", "--no-color",
            // The event stream stays open by design; ServeCommandTests reads it.
            "--exclude-path", "/api/events",
        ], workingDirectory: database.directory.url) // its cache folder stays out of the checkout
        kill(server.processIdentifier, SIGTERM)
        let stopped = server.wait()
        #expect(result.status == 0, "\(result.stdout.suffix(6000))\n\(result.stderr.suffix(2000))")
        #expect(stopped.status == 0)
        #expect(!stopped.stderr.contains(" 500 "), "a 500 in the access log")
    }

    @Test("schemathesis on the sync endpoints, with the token they always need: no server error, every answer as documented, nothing applied twice")
    func fuzzSync() throws {
        let database = CLIDatabase()
        let token = "fuzz-token-0123456789abcdef"
        let tokenFile = database.directory.path("token")
        try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        _ = try database.stockroom("items", "add", "--name", "Seed", "--color", "red")
        let server = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", database.path, "--port", "0", "--token-file", tokenFile])
        let url = String(try #require(server.readLine()).prefix { $0 != "?" })
        let checks = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance"
        let result = try PythonTools.run([
            "-c", "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())",
            "run", url + "api/openapi.json", "--checks", checks, "--max-examples", "20", "--seed", "1",
            "--phases", "examples,coverage,fuzzing", "--no-color",
            "-H", "Authorization: Bearer \(token)", "--include-path-regex", "^/api/sync",
        ], workingDirectory: database.directory.url)
        kill(server.processIdentifier, SIGTERM)
        let stopped = server.wait()
        #expect(result.status == 0, "\(result.stdout.suffix(6000))\n\(result.stderr.suffix(2000))")
        // GET and HEAD of /api/sync, its changes and its items, and POST of its batches.
        #expect(result.stdout.contains("Tested: 7"), "every sync operation was fuzzed: \(result.stdout.suffix(3000))")
        #expect(stopped.status == 0)
        #expect(!stopped.stderr.contains(" 500 "), "a 500 in the access log")
        #expect(try database.stockroom("check").status == 0)
    }
}
