import Foundation

/// A real `stockroom serve` on the shop's file, started by the test: the `stockroom` built at
/// the root of the repository this example lives in (`swift build` there first, as
/// scripts/test.sh does), or `STOCKROOM_BIN`. It listens on a free port (`--port 0`, whose URL
/// it prints), or on the port it had before a restart, and grants sync with a token read from
/// a file only its owner can read.
final class ShopServer {
    /// The server's root, without the token: what the replica remembers.
    let url: String
    /// The port it listens on.
    let port: Int
    /// The token the server grants sync with.
    let token: String
    private let process: Process

    /// The repository's `stockroom`, found from this file's place in Examples/InventoryApp.
    static var stockroomPath: String {
        ProcessInfo.processInfo.environment["STOCKROOM_BIN"] ?? URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: ".build/debug/stockroom").path
    }

    /// Starts serving the database file at `database`, with its token file in `folder`, on
    /// `port` (0: a free one), granting sync with `token` (a new one when nil).
    init(database: String, folder: URL, port: Int = 0, token: String? = nil) async throws {
        let executable = ShopServer.stockroomPath
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw Failure.missingBinary(executable) }
        let token = token ?? UUID().uuidString.lowercased()
        self.token = token
        let tokenFile = folder.appending(path: "token").path
        guard FileManager.default.createFile(atPath: tokenFile, contents: Data(token.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw Failure.tokenFile(tokenFile)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--db", database, "--port", String(port), "--token-file", tokenFile]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        // A server that hangs is killed at the deadline: its output ends, and the test fails
        // instead of hanging.
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) { if process.isRunning { process.terminate() } }
        let handle = output.fileHandleForReading
        let line = await Task.detached { ShopServer.firstLine(of: handle) }.value
        // It prints its URL with the token for a browser: http://127.0.0.1:PORT/?token=…
        guard let line, line.hasPrefix("http://"), let root = line.split(separator: "?").first,
              let port = root.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) }) else {
            process.terminate()
            throw Failure.noURL(line ?? "")
        }
        url = String(root)
        self.port = port
    }

    /// Stops the server (SIGTERM) and waits for it to exit; a stopped server stays so.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The first line `handle` gives, without its line break; nil when it ended first.
    private static func firstLine(of handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while let byte = try? handle.read(upToCount: 1)?.first {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Why the server could not be started.
    enum Failure: Error {
        /// No `stockroom` at this path: build the repository at its root first.
        case missingBinary(String)
        /// The token file could not be written here.
        case tokenFile(String)
        /// The server printed this instead of its URL, or exited.
        case noURL(String)
    }
}
