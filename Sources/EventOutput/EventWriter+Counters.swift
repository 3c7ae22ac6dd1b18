import DebounceCore
import SystemPackage

extension EventWriter {
    /// The rate unit of a counter with no device class: pulses per minute.
    public static let pulsesPerMinute = "pulses/min"

    /// Writes a counter's pulse, then `fields` (the counter's, formatted once):
    ///
    /// - JSON: `{"event":"count","total":N,"value":V,"rate_per_min":R,"rate":P,"rate_unit":"W","time_ns":T,"onset_ns":O,…}`:
    ///   the total in pulses (kept across runs), the value (`total / perUnit`, up to three decimals),
    ///   the pulses per minute and the rate in `rateUnit` (W, L/min, m³/h, pulses/min), both from the
    ///   interval since the previous pulse (0 for a run's first);
    /// - text: `count   total=N value=V rate=P W (R/min) time=SECONDS onset=SECONDS …`.
    public func write(count: PulseCount, perUnit: Double, rateUnit: String = pulsesPerMinute, fields: EventFields = .none) throws(Errno) {
        switch format {
        case .json:
            output.append(Self.jsonObject(count: count, perUnit: perUnit, rateUnit: rateUnit, fields: fields))
        case .text:
            output.appendUTF8(
                "count   total=\(count.total) value=\(Self.value(count.total, perUnit: perUnit)) rate=\(Self.decimal(count.rate)) \(rateUnit) (\(Self.decimal(count.ratePerMinute))/min) time=")
            output.appendUTF8(Self.seconds(count.timeNs))
            output.append(" onset=")
            output.appendUTF8(Self.seconds(count.onsetNs))
            output.append(fields.text)
        }
        try output.endLine()
    }

    /// The JSON object `write(count:perUnit:rateUnit:fields:)` prints (without the newline).
    public static func jsonObject(count: PulseCount, perUnit: Double, rateUnit: String = pulsesPerMinute, fields: EventFields = .none) -> [UInt8] {
        let text =
            "{\"event\":\"count\",\"total\":\(count.total),\"value\":\(value(count.total, perUnit: perUnit)),\"rate_per_min\":\(decimal(count.ratePerMinute)),"
            + "\"rate\":\(decimal(count.rate)),\"rate_unit\":\(JSONText.quoted(rateUnit)),\"time_ns\":\(count.timeNs),\"onset_ns\":\(count.onsetNs)"
        return Array(text.utf8) + fields.json + [UInt8(ascii: "}")]
    }

    /// Writes a counter's rate that fell with no pulse (`CounterReading`), then `fields` (the counter's):
    ///
    /// - JSON: `{"event":"rate","rate":P,"rate_unit":"W","rate_per_min":R,"total":N,"time_ns":T,…}`:
    ///   the most the rate can still be (one pulse over the time since the latest pulse began), in
    ///   `rateUnit` and in pulses per minute, or 0 after the counter's timeout;
    /// - text: `rate    P W (R/min) total=N time=SECONDS …`.
    public func write(rateFall fall: CounterReading, rateUnit: String = pulsesPerMinute, fields: EventFields = .none) throws(Errno) {
        switch format {
        case .json:
            output.append(Self.jsonObject(rateFall: fall, rateUnit: rateUnit, fields: fields))
        case .text:
            output.appendUTF8("rate    \(Self.decimal(fall.rate)) \(rateUnit) (\(Self.decimal(fall.ratePerMinute))/min) total=\(fall.total) time=")
            output.appendUTF8(Self.seconds(fall.timeNs))
            output.append(fields.text)
        }
        try output.endLine()
    }

    /// The JSON object `write(rateFall:rateUnit:fields:)` prints (without the newline).
    public static func jsonObject(rateFall fall: CounterReading, rateUnit: String = pulsesPerMinute, fields: EventFields = .none) -> [UInt8] {
        let text =
            "{\"event\":\"rate\",\"rate\":\(decimal(fall.rate)),\"rate_unit\":\(JSONText.quoted(rateUnit)),\"rate_per_min\":\(decimal(fall.ratePerMinute)),\"total\":\(fall.total),\"time_ns\":\(fall.timeNs)"
        return Array(text.utf8) + fields.json + [UInt8(ascii: "}")]
    }

    /// A counter's value: `total / perUnit`, with as many decimals as one pulse needs (a meter of
    /// 1000 imp/kWh shows each pulse as 0.001 kWh, one of 10000 imp/kWh as 0.0001; at most 9), trailing
    /// zeros dropped; the total itself when `perUnit` is 1 or not a positive number.
    public static func value(_ total: Int64, perUnit: Double) -> String {
        guard perUnit.isFinite, perUnit > 0, perUnit != 1 else { return "\(total)" }
        var digits = valueDecimals(perUnit: perUnit)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (Double(total) / perUnit * Double(scale)).rounded()
        guard scaled.magnitude < 9e18 else { return decimal(Double(total) / perUnit) }
        let units = Int64(scaled)
        var fraction = units % scale
        guard fraction != 0 else { return "\(units / scale)" }
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = String(fraction)
        return "\(units / scale).\(String(repeating: "0", count: digits - text.count))\(text)"
    }

    /// The decimals one pulse needs in a counter's value (`value(_:perUnit:)`): 3 for 1000 pulses a
    /// unit, 4 for 10000, 0 for 1 pulse a unit or a `perUnit` that is not a positive number; at most 9.
    package static func valueDecimals(perUnit: Double) -> Int {
        guard perUnit.isFinite, perUnit > 0, perUnit != 1 else { return 0 }
        var digits = 0
        var scale: Int64 = 1
        while Double(scale) < perUnit, digits < 9 {
            digits += 1
            scale *= 10
        }
        return digits
    }
}
