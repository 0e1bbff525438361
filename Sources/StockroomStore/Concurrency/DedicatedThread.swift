import Glibc

/// A dedicated POSIX thread, for work that blocks (SQLite calls, reads of a pipe) and so must
/// not run on Swift concurrency's or Dispatch's shared threads. Replaces Foundation's `Thread`,
/// which lives in Foundation's full module.
package enum DedicatedThread {
    /// Runs `body` on a new detached thread. `name` says what the thread is for; it is not set
    /// on the thread: Glibc's module does not export `pthread_setname_np` (a `_GNU_SOURCE` call).
    /// Traps if the thread cannot be created, as `Thread.start()` did.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Context(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { pointer in
            let context = Unmanaged<Context>.fromOpaque(pointer!).takeRetainedValue()
            context.body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Context>.fromOpaque(context).release()
            fatalError("pthread_create failed: \(result)")
        }
        pthread_detach(thread)
    }

    private final class Context {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
