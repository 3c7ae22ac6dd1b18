#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import SystemPackage

/// SIGINT and SIGTERM turned into a readable file descriptor (`signalfd`), so the watch loop sees
/// them in the same `ppoll` as the lines and can release the lines, flush and exit 0; there is no
/// signal handler and no race. Blocks both signals for the process while this object lives.
public final class InterruptSignals {
    /// Readable once SIGINT or SIGTERM is pending. Owned by this object.
    public let fileDescriptor: Int32
    private var previousMask = sigset_t()

    public init() throws(GPIOError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &mask, &previousMask)
        let descriptor = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard descriptor >= 0 else { throw .system(operation: "signalfd", errno: Errno(rawValue: errno)) }
        fileDescriptor = descriptor
    }

    /// Which signal arrived (reading it from the descriptor), or nil if none is pending.
    public func take() -> Int32? {
        var info = signalfd_siginfo()
        let count = withUnsafeMutableBytes(of: &info) { read(fileDescriptor, $0.baseAddress, $0.count) }
        return count == MemoryLayout<signalfd_siginfo>.size ? Int32(bitPattern: info.ssi_signo) : nil
    }

    deinit {
        close(fileDescriptor)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
}
