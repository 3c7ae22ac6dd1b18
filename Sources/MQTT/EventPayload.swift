import DebounceCore
import TraceFormat

/// An event as the MQTT message on `<base>/<button>/event`: the same JSON object `--format json`
/// prints for `run` (see `EventWriter`), e.g.
/// `{"event":"click","time_ns":5123456789,"onset_ns":4723456789,"count":2,"button":"lights","chip":"gpiochip0","line":17}`.
enum EventPayload {
    /// The JSON bytes for `event` of `button`.
    static func json(_ event: ButtonEvent, button: MQTTButton) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        append("{\"event\":\"\(event.kind.rawValue)\",\"time_ns\":\(event.timeNs),\"onset_ns\":\(event.onsetNs)")
        if event.kind == .click { append(",\"count\":\(event.count)") }
        append(",\"button\":")
        JSONText.escape(button.name) { bytes.append($0) }
        append(",\"chip\":")
        JSONText.escape(button.chip) { bytes.append($0) }
        append(",\"line\":\(button.line)}")
        return bytes
    }
}
