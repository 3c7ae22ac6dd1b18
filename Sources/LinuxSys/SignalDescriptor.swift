#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// SIGINT and SIGTERM as a readable descriptor (`signalfd(2)`), so the event loop sees them
/// in the same `ppoll` as everything else: no signal handler, no race. Blocks those signals for the
/// process (`pthread_sigmask` on the creating thread, which must be the main thread before any other
/// starts) while this object lives, and restores the previous mask after.
package final class SignalDescriptor {
    /// What `take()` found.
    package struct Received: Sendable, Hashable {
        /// SIGINT or SIGTERM arrived: the run should stop. The last such signal's number.
        package var stopSignal: Int32?

        package init() {}
    }

    /// Readable while a signal is pending. Owned by this object.
    package let owned: OwnedDescriptor
    private var previousMask = sigset_t()

    /// Watches SIGINT and SIGTERM (`signalfd` with `SFD_CLOEXEC | SFD_NONBLOCK`).
    package init() throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        let status = pthread_sigmask(SIG_BLOCK, &mask, &previousMask)
        guard status == 0 else { throw SystemError("pthread_sigmask", Errno(rawValue: status)) }
        let maskCopy = mask
        do {
            owned = try OwnedDescriptor(operation: "signalfd") {
                withUnsafePointer(to: maskCopy) { signalfd(-1, $0, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
            }
        } catch {
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw error
        }
    }

    /// The descriptor to poll.
    package var descriptor: FileDescriptor { owned.descriptor }

    /// Reads every pending signal (`read(2)` of `signalfd_siginfo` records until `EAGAIN`).
    package func take() throws(SystemError) -> Received {
        var received = Received()
        while true {
            var info = signalfd_siginfo()
            let count = withUnsafeMutableBytes(of: &info) { read(owned.descriptor.rawValue, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = Errno(rawValue: errno)
                if code == .interrupted { continue }
                if code == .wouldBlock || code == .resourceTemporarilyUnavailable { return received }
                throw SystemError("reading the signal descriptor", code)
            }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return received }
            received.stopSignal = Int32(bitPattern: info.ssi_signo)
        }
    }

    deinit {
        owned.close()
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
}
