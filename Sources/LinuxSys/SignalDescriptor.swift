#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// SIGINT and SIGTERM (and, for the daemon, SIGHUP and SIGUSR1) as a readable descriptor
/// (`signalfd(2)`), so the event loop sees them in the same `ppoll` as everything else: no signal
/// handler, no race. Blocks those signals for the
/// process (`pthread_sigmask` on the creating thread, which must be the main thread before any other
/// starts) while this object lives, and restores the previous mask after.
package final class SignalDescriptor {
    /// What `take()` found.
    package struct Received: Sendable, Hashable {
        /// SIGINT or SIGTERM arrived: the run should stop. The last such signal's number.
        package var stopSignal: Int32?
        /// SIGHUP arrived (watched with `.reload`): the configuration should be read again.
        package var reload = false
        /// SIGUSR1 arrived (watched with `.report`): each input's health should go to the log.
        package var report = false

        package init() {}
    }

    /// What a signal other than SIGINT and SIGTERM asks of a run, when it is watched.
    package enum Request: Sendable, Hashable {
        /// SIGHUP: read the configuration again (`systemctl reload`).
        case reload
        /// SIGUSR1: write each input's health to the log.
        case report
    }

    /// Readable while a signal is pending. Owned by this object.
    package let owned: OwnedDescriptor
    private var previousMask = sigset_t()

    /// Watches SIGINT and SIGTERM, and SIGHUP for `.reload` and SIGUSR1 for `.report` (`signalfd`
    /// with `SFD_CLOEXEC | SFD_NONBLOCK`). Signals not watched keep their default action.
    package init(requests: Set<Request> = []) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        if requests.contains(.reload) { sigaddset(&mask, SIGHUP) }
        if requests.contains(.report) { sigaddset(&mask, SIGUSR1) }
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
            switch Int32(bitPattern: info.ssi_signo) {
            case SIGHUP: received.reload = true
            case SIGUSR1: received.report = true
            case let signal: received.stopSignal = signal
            }
        }
    }

    deinit {
        owned.close()
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
}
