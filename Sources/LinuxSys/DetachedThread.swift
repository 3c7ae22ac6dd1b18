#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A one-shot POSIX thread for work that may block (a host name lookup, `HostLookup`), so
/// that the event loop never does. It is detached (nothing joins it; it ends with its work, or with
/// the process) and starts with every signal blocked: a thread inherits its creator's signal mask,
/// and one that had SIGINT or SIGTERM unblocked would take them and end the process at once, where
/// the main thread reads them from its `signalfd`.
package enum DetachedThread {
    /// Runs `work` on a new detached thread (`pthread_create`, `pthread_detach`). Returns `false` if
    /// the thread could not be made (`EAGAIN`: the system's thread limit), and `work` did not run.
    @discardableResult
    package static func start(_ work: @escaping @Sendable () -> Void) -> Bool {
        final class Work: Sendable {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
