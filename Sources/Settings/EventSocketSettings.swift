/// Where the daemon shares its inputs with other programs on the machine (`socket:` in a
/// configuration): the path of its events socket, who may read it, or that it has none. Pure: reading
/// it opens nothing.
package struct EventSocketSettings: Sendable, Hashable {
    /// Where the package's service listens: its runtime directory (`RuntimeDirectory=gpio-debounce`).
    package static let defaultPath = "/run/gpio-debounce/events.sock"
    /// The group the package makes for the socket's readers.
    package static let packageGroup = "gpio-debounce-events"

    /// The socket's path.
    package var path = Self.defaultPath
    /// Whether the configuration names the path (`socket: {path: …}`): a socket it names must be made,
    /// where one at the default path is left out, with a notice, when its directory is not there.
    package var pathIsChosen = false
    /// The group the socket belongs to (`chown`), or nil for the daemon's own.
    package var group: String?
    /// Its permission bits (`chmod`), 0660 by default: the daemon's user and group read it.
    package var mode: UInt32 = 0o660
    /// False: no events socket (`socket: {enabled: false}`).
    package var enabled = true

    package init() {}

    /// The control socket beside the events socket at `eventsPath`, for the daemon's own user and root
    /// (mode 0600): `control.sock` in the same directory when the events socket is `events.sock` (the
    /// service's `/run/gpio-debounce/control.sock`), else the events socket's name with `-control`
    /// before its `.sock` (`/tmp/panel.sock` → `/tmp/panel-control.sock`).
    package static func controlPath(beside eventsPath: String) -> String {
        let slash = eventsPath.lastIndex(of: "/").map { eventsPath.index(after: $0) } ?? eventsPath.startIndex
        let (directory, name) = (eventsPath[..<slash], eventsPath[slash...])
        if name == "events.sock" { return directory + "control.sock" }
        return directory + (name.hasSuffix(".sock") ? name.dropLast(5) : name) + "-control.sock"
    }
}
