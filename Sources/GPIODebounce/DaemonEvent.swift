import DebounceCore
import EventSocket

/// One line from a running `gpio-debounce run`'s events socket (docs/socket.md): an input's state
/// (each input's when the connection begins, then each change) or one of its events, as
/// `run --format json` prints it.
public struct DaemonEvent: Sendable, Hashable {
    /// The line's `event`: `state` for an input's state, else the event's name (`press`, `hold`,
    /// `rotate`, `count`, `select`, `code`, …), or `reloaded` and `lost` for lines of no input.
    public var name: String
    /// The input's name from the daemon's configuration; empty for a line of no input.
    public var input: String
    /// The input's kind, as its section of the configuration names it in the singular (`button` for
    /// `buttons:`; docs/socket.md lists them all); empty for a line of no input.
    public var kind: String
    /// The line's number since the daemon started (1, 2, 3, …); nil for the states sent when the
    /// connection began.
    public var sequence: Int?
    /// Whether it is an input's state when the connection began.
    public var isSnapshot: Bool
    /// A button's event as `Button.events` gives it (press, release and the gestures: hold, repeat,
    /// click, long release); nil for every other line.
    public var buttonEvent: ButtonEvent?
    /// Every field of the line as text, nested objects flattened (`state.total`), lists joined by
    /// commas.
    public var fields: [String: String]
    /// The line itself: one JSON object.
    public var json: String

    /// The line `json` (without its newline), or nil when it is not one of the protocol's.
    init?(line: [UInt8]) {
        guard let pairs = EventSocketText.fields(line), let name = pairs.first(where: { $0.key == "event" })?.value else { return nil }
        var fields: [String: String] = [:]
        for (key, value) in pairs where fields[key] == nil { fields[key] = value }
        self.name = name
        self.input = fields["input"] ?? ""
        self.kind = fields["kind"] ?? ""
        self.sequence = fields["seq"].flatMap { Int($0) }
        self.isSnapshot = fields["snapshot"] == "true"
        self.fields = fields
        self.json = String(decoding: line, as: UTF8.self)
        self.buttonEvent = kind == "button" ? Self.buttonEvent(name, fields) : nil
    }

    /// A button's event from its line's fields: `time_ns`, `onset_ns`, a click's `count`, a release's
    /// `held_ns`.
    private static func buttonEvent(_ name: String, _ fields: [String: String]) -> ButtonEvent? {
        guard let kind = ButtonEvent.Kind(rawValue: name), let timeNs = fields["time_ns"].flatMap({ Int64($0) }) else { return nil }
        return ButtonEvent(
            kind: kind, timeNs: timeNs, onsetNs: fields["onset_ns"].flatMap { Int64($0) } ?? timeNs, count: fields["count"].flatMap { Int($0) } ?? 0,
            heldNs: fields["held_ns"].flatMap { Int64($0) } ?? 0)
    }
}
