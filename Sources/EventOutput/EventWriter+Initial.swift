import DebounceCore
import SystemPackage

extension EventWriter {
    /// Writes a line's state at the start of a run (`watch --initial-state`), then `fields` (the
    /// line's, formatted once):
    ///
    /// - JSON: `{"event":"initial","state":"released","level":1,"time_ns":T,…}`;
    /// - text: `initial released level=1 time=SECONDS …`.
    ///
    /// `level` is the raw level (0 or 1, before any active-low inversion); `state` is the button's,
    /// `pressed` or `released` under its polarity, and is left out for a line with no debouncer (an
    /// encoder's). `timeNs` is when the state held, in nanoseconds of the run's clock.
    package func write(initialLevel level: Level, pressed: Bool?, timeNs: Int64, fields: EventFields = .none) throws(Errno) {
        switch format {
        case .json:
            output.append(Self.jsonObject(initialLevel: level, pressed: pressed, timeNs: timeNs, fields: fields))
        case .text:
            output.append("initial ")
            if let pressed { output.append(pressed ? "pressed  " : "released ") }
            output.appendUTF8("level=\(level) time=")
            output.appendUTF8(Self.seconds(timeNs))
            output.append(fields.text)
        }
        try output.endLine()
    }

    /// The JSON object `write(initialLevel:pressed:timeNs:fields:)` prints (without the newline).
    package static func jsonObject(initialLevel level: Level, pressed: Bool?, timeNs: Int64, fields: EventFields = .none) -> [UInt8] {
        var text = "{\"event\":\"initial\""
        if let pressed { text += ",\"state\":\"\(pressed ? "pressed" : "released")\"" }
        text += ",\"level\":\(level),\"time_ns\":\(timeNs)"
        return Array(text.utf8) + fields.json + [UInt8(ascii: "}")]
    }
}
