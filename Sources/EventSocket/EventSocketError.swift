import LinuxSys

/// Why the events socket could not be made, with what to do.
package enum EventSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process listens there: another `gpio-debounce run`.
    case inUse(String)
    /// Something that is not a socket is there.
    case notASocket(String)
    /// The configured group does not exist.
    case noGroup(String, path: String)
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
        case .cannotMake(let path, let error):
            "cannot make the events socket \(path): \(error); give `socket: {path: …}` a directory this user may write, or `socket: {enabled: false}`"
        }
    }
}
