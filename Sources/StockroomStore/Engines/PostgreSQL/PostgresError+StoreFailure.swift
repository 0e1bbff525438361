import PostgresCore

/// What a PostgreSQL error means to a front (``StoreFailure``).
extension PostgresError: EngineFailure {
    var storeFailureKind: StoreFailure.Kind {
        switch kind {
        case .invalidConnectionString: .usage
        case .libraryUnavailable: .unavailable
        case .connectionFailed, .connectionLost, .serializationFailure, .timedOut: .busy
        case .constraintViolation: .constraint
        case .unexpectedValue, .other: .data
        }
    }

    /// The server's message; connection strings in it are already redacted by PostgresCore.
    func storeFailureMessage(secondsWaited: () -> String) -> String {
        switch kind {
        case .connectionFailed: message + "; nothing was changed, try again when the server is reachable"
        case .connectionLost where isCommitOutcomeUnknown:
            "the write may or may not have been saved: the connection to the PostgreSQL server broke while committing (\(message)); check with `stockroom items list` before retrying"
        case .connectionLost: "the connection to the PostgreSQL server broke (\(message)); nothing was changed, try again"
        case .timedOut where sqlState == "55P03":
            "another session held the lock on the database past --busy-timeout: gave up after waiting \(secondsWaited()) s (\(sqlState ?? "")); nothing was changed, try again"
        default: description
        }
    }
}
