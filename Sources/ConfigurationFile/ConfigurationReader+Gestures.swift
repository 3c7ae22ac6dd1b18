import DebounceCore
import YAMLDocument

extension ConfigurationReader {
    /// The gestures an entry asks for (`hold:`, `repeat:`, `clicks:`, `throttle:`): a button's, and
    /// each key's of a keypad. Pass-through (press and release only) when it asks for none.
    package func gestureConfiguration(_ fields: [String: YAMLNode], key: String) throws(ConfigurationError) -> GestureConfiguration {
        var gestures = GestureConfiguration()
        if let node = fields["hold"] { gestures.holdNs = try reader.duration(node, key: "\(key).hold", what: "a hold") }
        if let node = fields["repeat"] {
            let repeatFields = try reader.mapping(node, key: "\(key).repeat", allowed: ["delay", "interval"])
            guard let interval = repeatFields["interval"] else {
                throw reader.error(node, "\(key).repeat", "needs `interval: DURATION` (from 10ms to 1h), and optionally `delay: DURATION` (from 1ms to 1h)")
            }
            gestures.repeatIntervalNs = try reader.duration(
                interval, key: "\(key).repeat.interval", what: "a repeat interval", minimum: ConfigurationLoader.minimumRepeatIntervalNs,
                why: " (each repeat is an event that may start an action: at most 100 a second)")
            gestures.repeatDelayNs = try repeatFields["delay"].map { node throws(ConfigurationError) in
                try reader.duration(node, key: "\(key).repeat.delay", what: "a repeat delay")
            } ?? gestures.holdNs ?? 500_000_000
        }
        if let node = fields["clicks"] {
            let clickFields = try reader.mapping(node, key: "\(key).clicks", allowed: ["window", "policy", "max"])
            guard let window = clickFields["window"] else { throw reader.error(node, "\(key).clicks", "needs `window: DURATION` (from 1ms to 1h, e.g. 400ms)") }
            gestures.clickWindowNs = try reader.duration(window, key: "\(key).clicks.window", what: "a click window")
            if let policy = clickFields["policy"] {
                let allowed = GestureConfiguration.ClickPolicy.allCases.map(\.rawValue)
                gestures.clickPolicy = GestureConfiguration.ClickPolicy(rawValue: try reader.choice(policy, key: "\(key).clicks.policy", allowed: allowed)) ?? .immediate
            }
            if let max = clickFields["max"] {
                gestures.maxClickCount = try reader.integer(max, key: "\(key).clicks.max", range: 1...ConfigurationLoader.maximumClickCount)
            }
        }
        if let node = fields["throttle"] { gestures.throttleNs = try reader.duration(node, key: "\(key).throttle", what: "a throttle") }
        return gestures
    }
}
