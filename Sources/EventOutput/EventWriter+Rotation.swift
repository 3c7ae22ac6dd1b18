import DebounceCore
import SystemPackage

extension EventWriter {
    /// Writes one detent of a rotary encoder, then `fields` (the encoder's, formatted once):
    ///
    /// - JSON: `{"event":"rotate","direction":"cw","position":P,"velocity":V,"time_ns":T,"onset_ns":O,…}`
    ///   (velocity in detents per second, with up to three decimals);
    /// - text: `rotate  cw  position=P velocity=V/s time=SECONDS onset=SECONDS …`.
    public func write(rotation: EncoderEvent, fields: EventFields = .none) throws(Errno) {
        let direction = rotation.direction.rawValue
        let velocity = Self.decimal(rotation.velocity)
        switch format {
        case .json:
            output.appendUTF8(Self.jsonOpening(rotation: rotation))
            output.append(fields.json)
            output.append("}")
        case .text:
            output.appendUTF8("rotate  \(direction == "cw" ? "cw " : "ccw") position=\(rotation.position) velocity=\(velocity)/s time=")
            output.appendUTF8(Self.seconds(rotation.timeNs))
            output.append(" onset=")
            output.appendUTF8(Self.seconds(rotation.onsetNs))
            output.append(fields.text)
        }
        try output.endLine()
    }

    /// The JSON object `write(rotation:fields:)` prints (without the newline): the same bytes for every
    /// consumer of detents, e.g. MQTT payloads.
    public static func jsonObject(rotation: EncoderEvent, fields: EventFields = .none) -> [UInt8] {
        Array(jsonOpening(rotation: rotation).utf8) + fields.json + [UInt8(ascii: "}")]
    }

    /// A detent's JSON object up to its fields: `{"event":"rotate",…,"onset_ns":O` (no closing brace).
    private static func jsonOpening(rotation: EncoderEvent) -> String {
        "{\"event\":\"rotate\",\"direction\":\"\(rotation.direction.rawValue)\",\"position\":\(rotation.position),\"velocity\":\(decimal(rotation.velocity)),\"time_ns\":\(rotation.timeNs),\"onset_ns\":\(rotation.onsetNs)"
    }

    /// Writes an encoder's position set by its reset button (`reset_line:`), then `fields` (the
    /// encoder's):
    ///
    /// - JSON: `{"event":"reset","position":P,"time_ns":T,…}`;
    /// - text: `reset  position=P time=SECONDS …`.
    ///
    /// `timeNs` is the press's debounced time, in nanoseconds of the run's clock.
    package func write(resetPosition position: Int, timeNs: Int64, fields: EventFields = .none) throws(Errno) {
        switch format {
        case .json:
            output.appendUTF8(Self.jsonOpening(resetPosition: position, timeNs: timeNs))
            output.append(fields.json)
            output.append("}")
        case .text:
            output.appendUTF8("reset  position=\(position) time=")
            output.appendUTF8(Self.seconds(timeNs))
            output.append(fields.text)
        }
        try output.endLine()
    }

    /// The JSON object `write(resetPosition:timeNs:fields:)` prints (without the newline): the same
    /// bytes for every consumer, e.g. MQTT payloads.
    package static func jsonObject(resetPosition position: Int, timeNs: Int64, fields: EventFields = .none) -> [UInt8] {
        Array(jsonOpening(resetPosition: position, timeNs: timeNs).utf8) + fields.json + [UInt8(ascii: "}")]
    }

    private static func jsonOpening(resetPosition position: Int, timeNs: Int64) -> String {
        "{\"event\":\"reset\",\"position\":\(position),\"time_ns\":\(timeNs)"
    }

    /// `value` with at most three decimals and no exponent (JSON and people read it alike): 12.5, 0,
    /// 480.123; a magnitude of 9e15 or more (no meter's rate) in Swift's shortest form, as 3.6e+24.
    package static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        guard value.magnitude < 9e15 else { return "\(value)" }
        let thousandths = Int64((value * 1000).rounded())
        let whole = thousandths / 1000
        var fraction = abs(thousandths % 1000)
        guard fraction != 0 else { return "\(whole)" }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
        return "\(thousandths < 0 && whole == 0 ? "-" : "")\(whole).\(padded)"
    }

    /// Nanoseconds as seconds with nine decimals, as the button events' text shows them.
    package static func seconds(_ ns: Int64) -> String {
        let fraction = String(abs(ns % 1_000_000_000))
        return "\(ns < 0 && ns / 1_000_000_000 == 0 ? "-" : "")\(ns / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
    }
}
