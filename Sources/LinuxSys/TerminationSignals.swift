#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SIGINT, SIGTERM, SIGHUP and SIGPIPE for a command that handles none of them and blocks in a read or
/// a sleep (`events --follow`): they should end it, as they end `tail -f`.
package enum TerminationSignals {
    /// Unblocks the four (`pthread_sigmask(SIG_UNBLOCK)` on the calling thread, which must be the main
    /// thread before any other starts). A signal mask is inherited through `exec`, and a parent that
    /// blocks them in the thread that starts its children (a test runner's worker threads, some
    /// supervisors) would otherwise leave `kill` with no effect. Signals ignored on purpose (`nohup`'s
    /// SIGHUP) stay ignored: only the mask changes.
    package static func unblock() {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }
}
