/// The key of a PostgreSQL advisory lock: a 64-bit number every process agrees on, such as
/// the one the migrations runner takes so that two `migrate up` run one after the other.
public struct AdvisoryLockKey: Sendable, Hashable {
    /// The number passed to `pg_advisory_xact_lock`.
    public let rawValue: Int64

    /// A key given as a number.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// A key derived from a name (64-bit FNV-1a of its UTF-8), the same in every process and on
    /// every machine: `AdvisoryLockKey(name: "stockroom.migrations")`.
    public init(name: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        rawValue = Int64(bitPattern: hash)
    }
}

extension Connection {
    /// Waits for the advisory lock `key` and holds it until the current transaction ends
    /// (`pg_advisory_xact_lock`): COMMIT or ROLLBACK releases it, as does a broken connection,
    /// so it can never be left behind.
    ///
    /// - Throws: ``PostgresError`` when no transaction is open (the lock would be released at
    ///   once), or when the wait fails (`lock_timeout`, `statement_timeout`, a lost connection).
    public func lockForTransaction(_ key: AdvisoryLockKey) throws {
        guard transactionState == .inTransaction else {
            throw PostgresError(kind: .other, message: "an advisory transaction lock needs an open transaction")
        }
        try query("SELECT pg_advisory_xact_lock($1)", key.rawValue)
    }

    /// Takes the advisory lock `key` for the current transaction if no one holds it, without
    /// waiting (`pg_try_advisory_xact_lock`); returns whether it was taken.
    public func tryLockForTransaction(_ key: AdvisoryLockKey) throws -> Bool {
        guard transactionState == .inTransaction else {
            throw PostgresError(kind: .other, message: "an advisory transaction lock needs an open transaction")
        }
        return try query("SELECT pg_try_advisory_xact_lock($1)", key.rawValue).scalar(Bool.self)
    }

    /// Runs `body` in a transaction that first waits for the advisory lock `key`, so that
    /// processes running the same `body` run it one after another (migrations, say).
    public func withAdvisoryLock<T>(_ key: AdvisoryLockKey, isolation: IsolationLevel = .readCommitted,
                                    _ body: () throws -> T) throws -> T {
        try transaction(isolation: isolation) {
            try lockForTransaction(key)
            return try body()
        }
    }
}
