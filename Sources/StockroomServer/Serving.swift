import Dispatch
import FoundationEssentials
import Glibc
import StockroomStore
import Synchronization

extension StockroomServer {
    /// The server's pool opened (the database is fine) but it never listened: the address could
    /// not be bound. `underlying` says why.
    public struct ListenFailure: Error {
        /// The error binding the address raised.
        public let underlying: any Error
    }

    /// Serves `location` until SIGTERM or SIGINT, blocking the calling thread: opens the pool,
    /// binds, calls `listening` with the URL to open, and on a signal stops accepting and lets
    /// the requests in flight finish for at most `shutdownSeconds`.
    ///
    /// - Throws: the store's error when the database cannot be opened, ``ListenFailure`` when
    ///   the address cannot be bound, or what stopped a server that was listening.
    public static func serve(configuration: ServerConfiguration, location: DatabaseLocation,
                             busyTimeoutMilliseconds: Int32, shutdownSeconds: Int,
                             listening: @escaping @Sendable (String) -> Void) throws {
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let stopping = StopFlag()
        let watchdog = ShutdownWatchdog(seconds: shutdownSeconds, stopping: stopping)
        Task {
            let result = await Result {
                let pool = try await StorePool.open(location, busyTimeout: .milliseconds(busyTimeoutMilliseconds), readOnly: configuration.readOnly)
                do {
                    try await StockroomServer(configuration: configuration, pool: pool, stopping: stopping).run { url in
                        outcome.markListening()
                        listening(url)
                    }
                } catch {
                    pool.close()
                    throw error
                }
            }
            outcome.finish(result)
            done.signal()
        }
        done.wait()
        watchdog.cancel()
        if case .failure(let error) = outcome.result {
            guard outcome.isListening || StoreFailure.of(error, secondsWaited: { "?" }) != nil || error is StoreError else {
                throw ListenFailure(underlying: error)
            }
            throw error
        }
    }
}

/// Bounds the graceful stop: the server stops accepting at SIGTERM or SIGINT and lets the
/// requests in flight finish; past `seconds`, the process exits 0 anyway. A write cut off
/// there was never committed (the engine rolls it back), and its client saw no success.
final class ShutdownWatchdog {
    private let sources: [any DispatchSourceSignal]

    init(seconds: Int, stopping: StopFlag) {
        sources = [SIGTERM, SIGINT].map { number in
            // Hummingbird's own handler ignores the default action too; a dispatch source
            // only sees a signal whose default action is off.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stopping.stop() // event streams end at once
                DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
                    StandardStream.write("serve: requests still running \(seconds) s after the signal were abandoned, uncommitted\n", to: STDERR_FILENO)
                    exit(0)
                }
            }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}

/// What the server task reports to the waiting command: whether it listened, and how it ended.
final class ServeOutcome: Sendable {
    private let state = Mutex<(listening: Bool, result: Result<Void, any Error>?)>((false, nil))

    func markListening() { state.withLock { $0.listening = true } }
    func finish(_ result: Result<Void, any Error>) { state.withLock { $0.result = result } }
    var isListening: Bool { state.withLock { $0.listening } }
    var result: Result<Void, any Error>? { state.withLock { $0.result } }
}

extension Result where Failure == any Error {
    /// The result of an async body.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
