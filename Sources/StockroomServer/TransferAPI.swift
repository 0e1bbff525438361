import FoundationEssentials
import Glibc
import Hummingbird
import StockroomStore
import Synchronization
import TextFormats

/// `/api/export` and `/api/import`: the files `stockroom export` writes and `import` reads.
struct TransferAPI: Sendable {
    let pool: StorePool
    let configuration: ServerConfiguration

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/export") { request, _ in try export(request) }
        router.post("/api/import") { request, _ in try await importItems(request) }
    }

    /// The media type and file name of each format.
    static func contentType(_ format: TransferFormat) -> String {
        switch format {
        case .jsonl: "application/jsonl"
        case .csv: "text/csv; charset=utf-8"
        case .json: "application/json"
        }
    }

    /// Every item, ordered by id, streamed as it is read from one snapshot: the bytes of
    /// `stockroom export --format F` of the same database.
    ///
    /// The export starts when the body is written, not when the response is made: a `HEAD`
    /// (whose body is never written) and a client gone before the body read no row.
    func export(_ request: Request) throws -> Response {
        let text = Form(request.uri.query)["format"] ?? TransferFormat.jsonl.rawValue
        guard let format = TransferFormat(rawValue: text) else {
            throw Problem(.badRequest, "format must be one of \(TransferFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let headers: HTTPFields = [
            .contentType: TransferAPI.contentType(format),
            .contentDisposition: "attachment; filename=\"stockroom.\(format.rawValue)\"",
        ]
        let pool = self.pool
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await TransferAPI.stream(format, from: pool, to: &writer)
        })
    }

    /// Runs the export on a pool thread into a pipe and writes what comes out of it to
    /// `writer`. A client that goes away makes the next write throw; the pipe's reader then
    /// stops and closes its end, and the export ends at its next write (EPIPE).
    static func stream(_ format: TransferFormat, from pool: StorePool, to writer: inout any ResponseBodyWriter) async throws {
        // The 200 went out before this: a failure from here on can only be told by not ending
        // the body. Throwing drops the connection without the terminating chunk, so every
        // client (curl: "transfer closed with outstanding read data") sees a broken transfer,
        // never a complete-looking short file.
        let (readEnd, writeEnd) = try PipeStream.make()
        let failure = ExportFailure()
        pool.start { store in
            do {
                _ = try ItemExport.write(format, from: store, to: writeEnd)
            } catch {
                // Recorded before the pipe closes, so the body sees it once the bytes end.
                failure.record(error)
            }
            close(writeEnd)
        }
        let (chunks, taken) = PipeStream.chunks(reading: readEnd)
        for await chunk in chunks {
            try await writer.write(chunk)
            taken()
        }
        if let error = failure.error { throw error }
        try await writer.finish(nil)
    }

    /// What an import did, as JSON.
    static func summaryJSON(_ summary: ItemImport.Summary) -> String {
        JSONText.object([
            ("rows", String(summary.rows)), ("imported", String(summary.imported)),
            ("skipped", String(summary.skipped)), ("replaced", String(summary.replaced)),
        ])
    }

    private func importItems(_ request: Request) async throws -> Response {
        let parameters = Form(request.uri.query)
        let type = RequestBody.mediaType(request)
        let format: TransferFormat
        if let text = parameters.nonEmpty("format") {
            guard let named = TransferFormat(rawValue: text), named != .json else {
                throw Problem(.badRequest, "format must be csv or jsonl")
            }
            format = named
        } else {
            format = type == "text/csv" ? .csv : .jsonl
        }
        let accepted = ["text/csv", "application/jsonl", "application/x-ndjson", "text/plain", "application/octet-stream"]
        guard accepted.contains(type) else {
            throw Problem(.unsupportedMediaType, "the body must be \(accepted.joined(separator: ", ")), not \(type.isEmpty ? "(no Content-Type)" : "'\(RequestChecks.printable(type))'")")
        }
        let policy = try TransferAPI.policy(parameters["on-conflict"])
        let spool = try await RequestBody.reading { try await Spool(request.body, limit: configuration.importBodyLimit) }
        let summary = try await run(format: format, policy: policy, spool: spool)
        return ItemsAPI.json(TransferAPI.summaryJSON(summary))
    }

    static func policy(_ text: String?) throws -> ItemImport.ConflictPolicy {
        guard let text, !text.isEmpty else { return .fail }
        guard let policy = ItemImport.ConflictPolicy(rawValue: text) else {
            throw Problem(.badRequest, "on-conflict must be one of \(ItemImport.ConflictPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return policy
    }

    /// Imports the spooled file: all rows or none, as `stockroom import`.
    func run(format: TransferFormat, policy: ItemImport.ConflictPolicy, spool: Spool) async throws -> ItemImport.Summary {
        defer { spool.close() }
        let descriptor = spool.descriptor
        return try await pool.write { store in
            try ItemImport(format: format, onConflict: policy).run(reading: descriptor, into: store)
        }
    }
}

/// The error that ended an export's writer thread, if one did, for the response body to see.
final class ExportFailure: Sendable {
    private let value = Mutex<(any Error)?>(nil)

    func record(_ error: any Error) { value.withLock { $0 = error } }

    var error: (any Error)? { value.withLock { $0 } }
}

/// A request body written to an unlinked temporary file, so an import of any allowed size
/// never sits in memory and the importer reads it as it reads a file.
struct Spool: Sendable {
    let descriptor: Int32

    init<Body: AsyncSequence>(_ body: Body, limit: Int) async throws where Body.Element == ByteBuffer {
        descriptor = try Spool.makeFile()
        var total = 0
        do {
            for try await chunk in body {
                total += chunk.readableBytes
                if total > limit { throw RequestBody.tooLarge(limit) }
                try Spool.write(chunk, to: descriptor)
            }
            _ = lseek(descriptor, 0, SEEK_SET)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    /// From bytes already read (a multipart form's file part).
    init(bytes: ArraySlice<UInt8>) throws {
        descriptor = try Spool.makeFile()
        do {
            try Spool.write(ByteBuffer(bytes: bytes), to: descriptor)
            _ = lseek(descriptor, 0, SEEK_SET)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    func close() { Glibc.close(descriptor) }

    private static func makeFile() throws -> Int32 {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/stockroom-import-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Problem(.internalServerError, "cannot create a temporary file for the upload: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    private static func write(_ chunk: ByteBuffer, to descriptor: Int32) throws {
        try chunk.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Problem(.internalServerError, "cannot spool the upload: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }
}
