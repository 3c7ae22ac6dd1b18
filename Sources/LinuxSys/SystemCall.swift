#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// A failed system call of this package's own: which operation, and the `errno` it set.
/// The one error type of the `LinuxSys` layer; higher layers wrap it in their own.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done, e.g. "ppoll" or "signalfd".
    public var operation: String
    public var errno: Errno

    public init(_ operation: String, _ errno: Errno) {
        self.operation = operation
        self.errno = errno
    }

    public var description: String { "\(operation) failed: \(errno.description) (errno \(errno.rawValue))" }
}

/// Runs a C call that returns -1 (or another negative value) and sets `errno` on failure, retrying
/// while it fails with `EINTR`; returns its result or throws the `Errno`, as swift-system does internally.
/// Public, not package, so that it inlines into other modules' system calls (Swift 6.3.1 inlines no
/// `package` declaration across modules); the same holds for `nonNull`.
@inlinable @inline(__always)
public func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = Errno(rawValue: errno)
        if code != .interrupted { throw code }
    }
}

/// Runs a C call that returns `nil` and sets `errno` on failure; returns its pointer or throws the `Errno`.
@inline(__always)
public func nonNull<Pointer>(_ call: () -> Pointer?) throws(Errno) -> Pointer {
    guard let pointer = call() else { throw Errno(rawValue: errno) }
    return pointer
}
