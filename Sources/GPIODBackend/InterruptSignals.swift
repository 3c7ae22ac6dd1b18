#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import SystemPackage

/// SIGINT and SIGTERM (and, for a daemon running commands, SIGCHLD) turned into a readable file
/// descriptor (`signalfd`), so the loop sees them in the same `ppoll` as the lines and can release the
/// lines, flush and exit 0, or reap a finished command; there is no signal handler and no race.
/// Blocks these signals for the process while this object lives.
public final class InterruptSignals: LineInterrupter {
    /// Readable once a watched signal is pending. Owned by this object.
    public let fileDescriptor: Int32
    /// Set when SIGCHLD arrived: a child process ended. The caller resets it after reaping.
    public var childExited = false
    private var previousMask = sigset_t()

    /// Watches SIGINT and SIGTERM, and SIGCHLD too if `watchingChildren`.
    public init(watchingChildren: Bool = false) throws(GPIOError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        if watchingChildren { sigaddset(&mask, SIGCHLD) }
        pthread_sigmask(SIG_BLOCK, &mask, &previousMask)
        let descriptor = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard descriptor >= 0 else { throw .system(operation: "signalfd", errno: Errno(rawValue: errno)) }
        fileDescriptor = descriptor
    }

    /// Reads every pending signal; returns whether one of them asks to stop (SIGINT, SIGTERM).
    /// SIGCHLD sets `childExited`.
    public func takeStopRequest() -> Bool {
        var stop = false
        while true {
            var info = signalfd_siginfo()
            let count = withUnsafeMutableBytes(of: &info) { read(fileDescriptor, $0.baseAddress, $0.count) }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return stop }
            if Int32(bitPattern: info.ssi_signo) == SIGCHLD { childExited = true } else { stop = true }
        }
    }

    deinit {
        close(fileDescriptor)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
}
