import FoundationEssentials
import Glibc
import TextFormats

/// Where a program finds the server's token: `--token-file FILE` or `STOCKROOM_TOKEN`, never a
/// command-line argument (other users of the machine see those in `ps`). `stockroom serve`
/// and `stockroom sync` read it alike.
package enum TokenSource {
    /// The environment variable that carries the token when no file is given.
    package static let environmentVariable = "STOCKROOM_TOKEN"

    /// The token from `file`, else from `STOCKROOM_TOKEN`, else nil. A file that others can
    /// read gets a warning on stderr (the token still works: refusing would break a running
    /// setup, and the warning says how to fix it).
    ///
    /// - Throws: ``Failure/Message``: 66 for a file that cannot be read, 64 for a token that is
    ///   not at least 16 printable ASCII characters without spaces, ';' or ','.
    package static func token(file: String?) throws -> String? {
        let text: String, origin: String
        if let file {
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw Failure.Message(code: .notFound, description: "cannot read the token file \(file)")
            }
            origin = "in \(file)"
            var status = stat()
            if stat(file, &status) == 0, status.st_mode & 0o077 != 0 {
                StandardError.write("warning: the token file \(file) can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))): `chmod 600 \(file)`\n")
            }
        } else if let value = getenv(environmentVariable) {
            text = String(cString: value)
            origin = "in \(environmentVariable)"
        } else {
            return nil
        }
        let token = String(text.trimmed { $0.isWhitespace || $0.isNewline })
        guard token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != ";" && $0 != "," }) else {
            throw Failure.Message(code: .usage, description: "the token \(origin) must be at least 16 printable ASCII characters without spaces, ';' or ','")
        }
        return token
    }
}
