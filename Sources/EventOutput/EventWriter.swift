import DebounceCore
import SystemPackage

/// How events are printed.
public enum EventFormat: String, Sendable, CaseIterable {
    /// One human-readable line per event: `press   time=1.234567890 onset=1.233000000 (+1.568ms)`.
    case text
    /// One JSON object per line: `{"event":"press","time_ns":N,"onset_ns":N}` (later keys are only ever
    /// added); gestures have "event" "hold", "repeat", "click" or "long_release", a click adds
/// `"count":N`, and a release and a long release add `"held_ns":N` (how long the button was held).
    case json
}

/// Writes debounced events, one per line, to an `OutputBuffer`.
public struct EventWriter {
    public let format: EventFormat
    public let output: OutputBuffer

    public init(format: EventFormat, output: OutputBuffer) {
        self.format = format
        self.output = output
    }

    /// Writes one event: its standard fields, then `fields` (the line's, formatted once), then
    /// `trailing` (a field whose value changes from event to event, such as a count).
    public func write(_ event: ButtonEvent, fields: EventFields = .none, trailing: EventField? = nil) throws(Errno) {
        try fields.json.withUnsafeBufferPointer { (json) throws(Errno) in
            try fields.text.withUnsafeBufferPointer { (text) throws(Errno) in
                try write(event, fieldsJSON: json, fieldsText: text, trailing: trailing)
            }
        }
    }

    /// Writes one event as `write(_:fields:trailing:)` does, its fields given as their bytes in each
    /// format (`EventFields.json` and `.text`, e.g. from an `EventFieldTable`): nothing is copied or
    /// reference-counted before the line is written.
    public func write(
        _ event: ButtonEvent, fieldsJSON: UnsafeBufferPointer<UInt8>, fieldsText: UnsafeBufferPointer<UInt8>, trailing: EventField? = nil
    ) throws(Errno) {
        switch format {
        case .json:
            try output.appendLine(maximumCount: Self.maximumJSONCount(fieldsCount: fieldsJSON.count, trailing: trailing)) { line in
                Self.putJSON(event, fields: fieldsJSON, trailing: trailing, into: &line)
            }
            return
        case .text:
            output.append(Self.textOpening(event.kind))
            appendSeconds(event.timeNs)
            output.append(" onset=")
            appendSeconds(event.onsetNs)
            output.append(" (+")
            let delayNs = event.timeNs &- event.onsetNs
            output.append(delayNs / 1_000_000)
            output.append(".")
            output.append(delayNs % 1_000_000 / 1_000, zeroPaddedTo: 3)
            output.append("ms)")
            if event.kind == .click {
                output.append(" count=")
                output.append(Int64(event.count))
            } else if event.kind == .release || event.kind == .longRelease {
                output.append(" held=")
                output.append(event.heldNs / 1_000_000)
                output.append(".")
                output.append(event.heldNs % 1_000_000 / 1_000, zeroPaddedTo: 3)
                output.append("ms")
            }
            output.append(fieldsText)
            if let trailing { output.appendFormatted(maximumCount: trailing.maximumTextCount) { trailing.putText(into: &$0) } }
        }
        try output.endLine()
    }

    /// The JSON object `write` prints for `event` with `fields` (without the newline): the same bytes
    /// for every consumer of events, e.g. MQTT payloads.
    public static func jsonObject(_ event: ButtonEvent, fields: EventFields = .none) -> [UInt8] {
        fields.json.withUnsafeBufferPointer { json in
            ByteWriter.bytes(maximumCount: maximumJSONCount(fieldsCount: json.count, trailing: nil)) { putJSON(event, fields: json, trailing: nil, into: &$0) }
        }
    }

    /// The most bytes an event's JSON line can take: 128 hold the opening (at most 35), the two times
    /// and the count or the held time (20 digits each, with their keys: at most 85) and the closing
    /// brace; then `fieldsCount` bytes of fields and `trailing`'s most.
    @inline(__always)
    private static func maximumJSONCount(fieldsCount: Int, trailing: EventField?) -> Int {
        128 + fieldsCount + (trailing?.maximumJSONCount ?? 0)
    }

    /// The whole JSON line in one piece, into memory sized by `maximumJSONCount`.
    private static func putJSON(_ event: ButtonEvent, fields: UnsafeBufferPointer<UInt8>, trailing: EventField?, into line: inout ByteWriter) {
        line.put(jsonOpening(event.kind))
        let timeStart = line.count
        line.put(event.timeNs)
        let timeDigits = line.count - timeStart
        line.put(",\"onset_ns\":")
        if event.onsetNs == event.timeNs {
            line.putAgain(from: timeStart, count: timeDigits)  // an eager event: decided at its onset
        } else {
            line.put(event.onsetNs)
        }
        if event.kind == .click {
            line.put(",\"count\":")
            line.put(Int64(event.count))
        } else if event.kind == .release || event.kind == .longRelease {
            line.put(",\"held_ns\":")
            line.put(event.heldNs)
        }
        line.put(fields)
        trailing?.putJSON(into: &line)
        line.put("}")
    }

    /// `{"event":"KIND","time_ns":` for each kind.
    private static func jsonOpening(_ kind: ButtonEvent.Kind) -> StaticString {
        switch kind {
        case .press: "{\"event\":\"press\",\"time_ns\":"
        case .release: "{\"event\":\"release\",\"time_ns\":"
        case .hold: "{\"event\":\"hold\",\"time_ns\":"
        case .repeat: "{\"event\":\"repeat\",\"time_ns\":"
        case .click: "{\"event\":\"click\",\"time_ns\":"
        case .longRelease: "{\"event\":\"long_release\",\"time_ns\":"
        }
    }

    /// The kind, padded to line up, then `time=`.
    private static func textOpening(_ kind: ButtonEvent.Kind) -> StaticString {
        switch kind {
        case .press: "press   time="
        case .release: "release time="
        case .hold: "hold    time="
        case .repeat: "repeat  time="
        case .click: "click   time="
        case .longRelease: "long_release time="
        }
    }

    /// Nanoseconds as seconds with nine decimals, e.g. `50.000812000`.
    private func appendSeconds(_ ns: Int64) {
        if ns < 0 { output.append("-") }
        let magnitude = Int64(clamping: ns.magnitude)
        output.append(magnitude / 1_000_000_000)
        output.append(".")
        output.append(magnitude % 1_000_000_000, zeroPaddedTo: 9)
    }
}
