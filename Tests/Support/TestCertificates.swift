import Foundation

/// A certificate authority and a server certificate it signed, for `localhost` and 127.0.0.1,
/// made with the `openssl` command in a temporary folder: what a TLS test needs, and nothing
/// committed (a key in the repository would be a key anyone has).
public struct TestCertificates: Sendable {
    /// The CA's certificate (PEM): the `sslrootcert` a client trusts.
    public let authorityCertificatePath: String
    /// The server's certificate (PEM), signed by the CA.
    public let serverCertificate: String
    /// The server's private key (PEM).
    public let serverKey: String

    /// Makes a CA named `name` and a server certificate signed by it (EC P-256 keys: fast to make).
    public init(in directory: TemporaryDirectory, name: String = "Stockroom test CA") throws {
        let folder = directory.url.path
        func openssl(_ arguments: [String]) throws {
            let result = try Processes.run("/usr/bin/openssl", arguments)
            guard result.status == 0 else { throw CertificateError(description: "openssl \(arguments.joined(separator: " ")): \(result)") }
        }
        let tag = UUID().uuidString.prefix(8)
        let ca = "\(folder)/ca-\(tag)", server = "\(folder)/server-\(tag)"
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + key + ["-keyout", ca + ".key", "-out", ca + ".crt", "-days", "2", "-subj", "/CN=\(name)"])
        try openssl(["req"] + key + ["-keyout", server + ".key", "-out", server + ".csr", "-subj", "/CN=localhost"])
        try Data("subjectAltName=DNS:localhost,IP:127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: server + ".ext"))
        try openssl(["x509", "-req", "-in", server + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key", "-CAcreateserial",
                     "-out", server + ".crt", "-days", "2", "-extfile", server + ".ext"])
        authorityCertificatePath = ca + ".crt"
        serverCertificate = try String(contentsOfFile: server + ".crt", encoding: .utf8)
        serverKey = try String(contentsOfFile: server + ".key", encoding: .utf8)
    }

    struct CertificateError: Error, CustomStringConvertible {
        let description: String
    }
}
