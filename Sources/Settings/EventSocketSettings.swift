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
}
