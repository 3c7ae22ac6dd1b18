import LinuxSys
import SystemPackage

/// A failure of a line while it is watched, saying what to do about it.
public enum LineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(operation: String, errno: Errno)
    /// The chip disappeared while watched (e.g. a USB GPIO expander was unplugged).
    case chipVanished(chip: String)
    /// A recorded input cannot be read on (a trace's malformed line, a failed read); `reason` says
    /// where and why.
    case inputUnreadable(reason: String)

    public var description: String {
        switch self {
        case .chipVanished(let chip):
            "\(chip) vanished while being watched (unplugged, or its driver was unloaded); plug it back in and start again"
        case .inputUnreadable(let reason):
            reason
        case .system(let operation, let errno):
            "\(operation) failed: \(errno.description) (errno \(errno.rawValue))"
        }
    }
}

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
