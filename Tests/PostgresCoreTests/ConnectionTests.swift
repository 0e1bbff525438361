import Foundation
import PostgresCore
import StockroomTestSupport
import Testing

@Suite struct ConnectionTests {
    @Test func connectsOverTheUnixSocket() throws {
        let server = try PostgresServer.shared
        let connection = try Connection(server.socketURI())
        #expect(connection.serverVersion >= 150000)
        #expect(try connection.query("SELECT 1 + 1").scalar(Int.self) == 2)
    }
}
