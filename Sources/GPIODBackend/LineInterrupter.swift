#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import SystemPackage

/// A file descriptor that the line backend polls beside the lines, to be told to stop (or to wake up).
public protocol LineInterrupter: AnyObject {
    /// Readable when there is something to take. Owned by the interrupter.
    var fileDescriptor: Int32 { get }
    /// Consumes what made the descriptor readable; returns whether it asks the loop to stop.
    func takeStopRequest() -> Bool
}

/// A stop button for a watch running on another thread (`eventfd`): `stop()` from any thread makes
/// the line backend's `wait` return `.interrupted`, so the loop ends and releases its lines.
public final class StopSwitch: LineInterrupter, Sendable {
    public let fileDescriptor: Int32

    public init() throws(GPIOError) {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { throw .system(operation: "eventfd", errno: Errno(rawValue: errno)) }
        fileDescriptor = descriptor
    }

    /// Asks the loop to stop (`write` to the eventfd: safe from any thread, and from a signal handler).
    public func stop() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(fileDescriptor, $0.baseAddress, 8) }
    }

    public func takeStopRequest() -> Bool {
        var value: UInt64 = 0
        return withUnsafeMutableBytes(of: &value) { read(fileDescriptor, $0.baseAddress, 8) } == 8
    }

    deinit { close(fileDescriptor) }
}
