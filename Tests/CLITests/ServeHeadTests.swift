import Foundation
import StockroomTestSupport
import Testing

extension ServeCommandTests {
    @Test("HEAD over a real connection: the GET's framing headers and not one byte of body, so the next answer on the connection follows at once")
    func headFraming() throws {
        let server = try Server()
        _ = try server.database.stockroom("items", "add", "--name", "Hub")
        for (path, framing) in [("/api/export?format=csv", "transfer-encoding: chunked"), ("/", "content-length: "), ("/assets/style.css", "content-length: ")] {
            // Two requests on one connection: the HEAD, then a GET that closes it.
            let request = "HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
                + "GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n"
            let answer = String(decoding: try RawHTTP.exchange(port: server.port, Array(request.utf8)), as: UTF8.self)
            let parts = answer.components(separatedBy: "\r\n\r\n")
            #expect(parts.count >= 2, "\(path): \(answer.prefix(500))")
            let head = parts[0].lowercased()
            #expect(head.hasPrefix("http/1.1 200"), "\(path): \(head)")
            #expect(head.contains(framing), "\(path): \(head)")
            #expect(head.contains("x-content-type-options: nosniff") && head.contains("x-frame-options: deny"), "\(path): \(head)")
            // The GET's answer starts right after the HEAD's headers: the HEAD sent no body.
            #expect(parts.count > 1 && parts[1].hasPrefix("HTTP/1.1 200"), "\(path): \(answer.prefix(800))")
        }
        // curl -I, as a monitor would.
        let curl = try Processes.run("/usr/bin/curl", ["--silent", "--show-error", "--fail", "--head", "http://127.0.0.1:\(server.port)/api/items"])
        #expect(curl.status == 0 && curl.stdout.hasPrefix("HTTP/1.1 200"), "\(curl)")
        let stopped = server.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.contains("HEAD /api/export?format=csv 200 "), "the log names the method sent: \(stopped.stderr)")
    }
}
