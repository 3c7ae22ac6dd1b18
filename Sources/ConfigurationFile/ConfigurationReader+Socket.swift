import Settings
import YAMLDocument

extension ConfigurationReader {
    /// `socket:`: `path` (absolute, at most `maximumSocketPathBytes`), `group`, `mode` (octal, as
    /// `chmod` takes it: `0660`), `enabled` (`true` or `false`).
    func readSocket(_ node: YAMLNode) throws(ConfigurationError) -> EventSocketSettings {
        let fields = try reader.mapping(node, key: "socket", allowed: ["path", "group", "mode", "enabled"])
        var settings = EventSocketSettings()
        if let path = fields["path"] {
            let text = try reader.string(path, key: "socket.path")
            guard text.hasPrefix("/") else {
                throw reader.error(path, "socket.path", "must be an absolute path, e.g. /run/gpio-debounce/events.sock; this one is \(ConfigurationLoader.quoted(text))")
            }
            guard text.utf8.count <= Self.maximumSocketPathBytes else {
                throw reader.error(path, "socket.path", "a socket's path has at most \(Self.maximumSocketPathBytes) bytes (the kernel's sockaddr_un); this one has \(text.utf8.count)")
            }
            (settings.path, settings.pathIsChosen) = (text, true)
        }
        if let group = fields["group"] { settings.group = try reader.name(group, key: "socket.group", what: "a group's name") }
        if let mode = fields["mode"] {
            let text = try reader.string(mode, key: "socket.mode")
            guard (3...4).contains(text.count), let bits = UInt32(text, radix: 8), bits <= 0o777 else {
                throw reader.error(mode, "socket.mode", "is the socket's permissions in octal, as chmod takes them, e.g. 0660 (its user and group read it); this one is \(ConfigurationLoader.quoted(text))")
            }
            guard bits & 0o600 == 0o600 else {
                throw reader.error(mode, "socket.mode", "must let the daemon's own user read and write its socket (0600 at least, e.g. 0660); this one is \(text)")
            }
            settings.mode = bits
        }
        if let enabled = fields["enabled"] {
            settings.enabled = try reader.choice(enabled, key: "socket.enabled", allowed: ["true", "false"]) == "true"
        }
        return settings
    }

    /// The longest socket path, in bytes: a `sockaddr_un`'s 108 less the terminating NUL, as
    /// `UnixSocket.maximumPathBytes` (LinuxSys) reads it from the header.
    static let maximumSocketPathBytes = 107
}
