import EventOutput
import Pipeline

extension InputHealth {
    /// Its counts as one JSON object, as MQTT publishes them on `<base>/<input>/health` and the events
    /// socket answers a status request: `{"edges":N,"bounces_absorbed":N,"glitches_rejected":N,
    /// "noise_bursts":N,"lost_events":N}`, and `"invalid_readings":N` for an input that makes readings.
    package var json: [UInt8] {
        var pairs: [(String, Int)] = [
            ("edges", edges), ("bounces_absorbed", bouncesAbsorbed), ("glitches_rejected", glitchesRejected), ("noise_bursts", noiseBursts),
            ("lost_events", lostEvents),
        ]
        if let invalidReadings { pairs.append(("invalid_readings", invalidReadings)) }
        return Array(JSONValue.object(pairs.map { ($0.0, .integer($0.1)) }).text.utf8)
    }
}
