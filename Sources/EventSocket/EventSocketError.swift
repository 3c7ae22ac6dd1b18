import LinuxSys

/// Why the events socket could not be made, with what to do.
package enum EventSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process listens there: another `gpio-debounce run`.
    case inUse(String)
    /// Something that is not a socket is there.
    case notASocket(String)
    /// The configured group does not exist.
    case noGroup(String, path: String)
    /// The path is longer than a Unix socket's may be (`UnixSocket.maximumPathBytes`).
    case tooLong(String)
    /// A step of making it failed (its directory, `bind`, `chmod`, `chown`).
    case cannotMake(path: String, SystemError)

    package var description: String {
        switch self {
        case .inUse(let path):
            "another gpio-debounce run listens on \(path): stop it (systemctl stop gpio-debounce), or give this one another `socket: {path: …}`"
        case .notASocket(let path):
            "\(path) is there and is not a socket: remove it, or give `socket: {path: …}` another path"
        case .noGroup(let group, let path):
            "no group \"\(group)\" for the events socket \(path): create it (groupadd \(group)), or leave `socket: {group: …}` out"
        case .tooLong(let path):
            "the events socket's path \(path) has \(path.utf8.count) bytes, and a Unix socket's has at most \(UnixSocket.maximumPathBytes): give `socket: {path: …}` (or --socket) a shorter one"
        case .cannotMake(let path, let error):
            "cannot make the events socket \(path): \(error); give `socket: {path: …}` a directory this user may write, or `socket: {enabled: false}`"
        }
    }
}
