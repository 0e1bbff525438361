import LibPQ

/// libpq, the PostgreSQL client library, which PostgresCore loads when the first connection
/// is opened rather than linking it.
///
/// A program that links PostgresCore but never connects (a `stockroom` run on a SQLite file)
/// never loads libpq nor the two dozen libraries it brings (Kerberos, LDAP, OpenSSL, ...), and
/// runs on a machine where libpq is not installed. The cost moves to the first connection,
/// which pays it once per process.
public enum PostgresClientLibrary {
    /// The shared library loaded: `libpq.so.5` (Debian's `libpq5` package).
    public static let soname = STOCKROOM_LIBPQ_SONAME

    /// Loads libpq now unless this process already did.
    ///
    /// ``Connection/init(_:)`` calls this itself; call it early only to report a missing
    /// library before doing anything else.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/libraryUnavailable`` saying
    ///   what the dynamic loader said and to install libpq5. Every later call throws the same.
    public static func load() throws {
        _ = try functions()
    }

    /// The version of the libpq in use, e.g. 150018 for 15.18 (loads libpq).
    public static func version() throws -> Int {
        Int(try functions().PQlibVersion())
    }

    /// libpq's functions, loading libpq on the first call of the process.
    static func functions() throws -> LibPQTable {
        var failure = LibPQLoadFailureNone
        var message: UnsafePointer<CChar>?
        if let table = stockroom_libpq_functions(&failure, &message) {
            return LibPQTable(functions: table)
        }
        throw error(failure, library: soname, message: message.map { String(cString: $0) } ?? "")
    }

    /// Loads `library` as the process loads libpq, but apart from the process's table, and
    /// throws what ``load()`` would throw if that were the library found: lets tests take the
    /// paths where the library is missing or is not libpq.
    static func load(library: String) throws {
        let table = UnsafeMutablePointer<LibPQFunctions>.allocate(capacity: 1)
        defer { table.deallocate() }
        var message = [CChar](repeating: 0, count: 1024)
        let failure = stockroom_libpq_load(library, table, &message, message.count)
        if failure != LibPQLoadFailureNone {
            throw error(failure, library: library,
                        message: String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) },
                                        as: UTF8.self))
        }
    }

    private static func error(_ failure: LibPQLoadFailure, library: String, message: String) -> PostgresError {
        let reason = message.isEmpty ? library : message
        switch failure {
        case LibPQLoadFailureSymbolMissing:
            return PostgresError(kind: .libraryUnavailable,
                                 message: "libpq cannot be used: \(reason); install libpq5 (PostgreSQL 10 or later)")
        default:
            return PostgresError(kind: .libraryUnavailable, message: "libpq is not installed: \(reason); install libpq5")
        }
    }
}

/// The loaded libpq's functions, called by their libpq names: `pq.PQexec(handle, sql)`.
///
/// Only ``PostgresClientLibrary/functions()`` makes one, from the complete table, so holding
/// one means libpq is loaded. Every object that calls libpq holds the table of the
/// ``Connection`` that made it.
@dynamicMemberLookup
struct LibPQTable {
    let functions: UnsafePointer<LibPQFunctions>

    @inline(__always)
    subscript<Function>(dynamicMember function: KeyPath<LibPQFunctions, Function>) -> Function {
        functions.pointee[keyPath: function]
    }

    /// PQerrorMessage's text: the connection's latest error, or "" (libpq returns "" rather
    /// than NULL; through a function pointer Swift cannot know that).
    func errorMessage(_ connection: OpaquePointer) -> String {
        functions.pointee.PQerrorMessage(connection).map { String(cString: $0) } ?? ""
    }
}
