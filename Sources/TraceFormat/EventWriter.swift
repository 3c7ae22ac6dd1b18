import DebounceCore
import SystemPackage

/// How events are printed.
public enum EventFormat: String, Sendable, CaseIterable {
    /// One human-readable line per event: `press   time=1.234567890 onset=1.233000000 (+1.568ms)`.
    case text
    /// One JSON object per line: `{"event":"press","time_ns":N,"onset_ns":N}` (later keys are only ever
    /// added); gestures have "event" "hold", "repeat" or "click", and a click adds `"count":N`.
    case json
}

/// A key and value printed after an event's standard fields.
public enum EventField: Sendable {
    case integer(StaticString, Int64)
    case text(StaticString, String)
}

/// Writes debounced events, one per line, to an `OutputBuffer`.
public struct EventWriter {
    public let format: EventFormat
    public let output: OutputBuffer

    public init(format: EventFormat, output: OutputBuffer) {
        self.format = format
        self.output = output
    }

    /// Writes one event, with extra fields after the standard ones (JSON keys, or `key=value` in text).
    public func write(_ event: ButtonEvent, extraFields: [EventField] = []) throws(Errno) {
        switch format {
        case .json:
            // The whole line is formatted in one piece: 128 bytes hold the opening (at most 29), the two
            // times and the count (20 digits each, with their keys) and the closing brace.
            var maximumCount = 128
            for field in extraFields {
                switch field {
                case .integer(let key, _): maximumCount += key.utf8CodeUnitCount + 24
                case .text(let key, let value): maximumCount += key.utf8CodeUnitCount + 4 + ByteWriter.maximumJSONStringLength(value)
                }
            }
            output.appendFormatted(maximumCount: maximumCount) { line in
                line.put(Self.jsonOpening(event.kind))
                line.put(event.timeNs)
                line.put(",\"onset_ns\":")
                line.put(event.onsetNs)
                if event.kind == .click {
                    line.put(",\"count\":")
                    line.put(Int64(event.count))
                }
                for field in extraFields {
                    line.put(",\"")
                    switch field {
                    case .integer(let key, let value):
                        line.put(key)
                        line.put("\":")
                        line.put(value)
                    case .text(let key, let value):
                        line.put(key)
                        line.put("\":")
                        line.putJSONString(value)
                    }
                }
                line.put("}")
            }
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
            }
            for field in extraFields {
                output.append(" ")
                switch field {
                case .integer(let key, let value):
                    output.append(key)
                    output.append("=")
                    output.append(value)
                case .text(let key, let value):
                    output.append(key)
                    output.append("=")
                    output.append(TerminalText.escaped(value))
                }
            }
        }
        try output.endLine()
    }

    /// `{"event":"KIND","time_ns":` for each kind.
    private static func jsonOpening(_ kind: ButtonEvent.Kind) -> StaticString {
        switch kind {
        case .press: "{\"event\":\"press\",\"time_ns\":"
        case .release: "{\"event\":\"release\",\"time_ns\":"
        case .hold: "{\"event\":\"hold\",\"time_ns\":"
        case .repeat: "{\"event\":\"repeat\",\"time_ns\":"
        case .click: "{\"event\":\"click\",\"time_ns\":"
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
        }
    }

    /// A JSON string literal, escaping quotes, backslashes and control characters.
    /// Nanoseconds as seconds with nine decimals, e.g. `50.000812000`.
    private func appendSeconds(_ ns: Int64) {
        if ns < 0 { output.append("-") }
        let magnitude = Int64(clamping: ns.magnitude)
        output.append(magnitude / 1_000_000_000)
        output.append(".")
        output.append(magnitude % 1_000_000_000, zeroPaddedTo: 9)
    }
}
