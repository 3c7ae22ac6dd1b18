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
