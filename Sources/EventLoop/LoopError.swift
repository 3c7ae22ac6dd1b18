import LineInput
import LinuxSys
import SystemPackage

/// Why an `EventLoop` could not go on. Its `description` is the message for the user.
public enum LoopError: Error, Sendable, CustomStringConvertible {
    /// A line failed (the chip vanished, a read failed).
    case line(LineError)
    /// A sink failed (a write to standard output or to a file).
    case sink(SinkError)
    /// The loop's own system call failed (`ppoll`, reading the signal descriptor).
    case system(SystemError)

    public var description: String {
        switch self {
        case .line(let error): error.description
        case .sink(let error): error.description
        case .system(let error): error.description
        }
    }
}

/// A sink's failure: what it was doing, and why.
public struct SinkError: Error, Sendable, CustomStringConvertible {
    /// E.g. "cannot write the events".
    public var what: String
    public var errno: Errno

    public init(_ what: String, _ errno: Errno) {
        self.what = what
        self.errno = errno
    }

    public var description: String { "\(what): \(errno.description)" }
}
