#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Ends, from any thread, the blocking reads of a connection another thread owns (`DaemonEvents`
/// when its iteration is cancelled): `shutdown(2)` of its socket, so that its `read` returns the end of
/// the stream. The owner says when the socket is open (`opened`) and before it closes it (`closing`),
/// so that a late `interrupt` never reaches a descriptor number the process has given to another file.
package final class EventSocketInterrupter: Sendable {
    private enum State { case waiting, open(Int32), interrupted }
    private let state = Mutex(State.waiting)

    package init() {}

    /// The owner's socket is open as `descriptor`; false when an interrupt came first (the owner
    /// should close it and stop).
    package func opened(_ descriptor: Int32) -> Bool {
        state.withLock { state in
            guard case .waiting = state else { return false }
            state = .open(descriptor)
            return true
        }
    }

    /// The owner is about to close its socket: an interrupt from now on does nothing.
    package func closing() {
        state.withLock { $0 = .interrupted }
    }

    /// Ends the owner's reads (`shutdown(SHUT_RDWR)`), or keeps it from starting them.
    package func interrupt() {
        state.withLock { state in
            if case .open(let descriptor) = state { shutdown(descriptor, Int32(SHUT_RDWR)) }
            state = .interrupted
        }
    }
}
