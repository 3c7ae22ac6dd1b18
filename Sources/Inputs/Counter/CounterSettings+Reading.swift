import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// `counters:`, the pulse counters (meters) of a configuration:
///
/// ```yaml
/// counters:
///   - name: energy
///     line: GPIO24
///     per_unit: 1000             # 1000 imp/kWh
///     unit: kWh
///     device_class: energy
///     timeout: 5min              # the default: no pulse this long and the power is 0
///     actions:
///       - on: rate               # each rate reported (at a pulse, and as it falls); or `pulse`
///         run: [/usr/local/bin/log-power]   # GPIO_RATE=… GPIO_RATE_UNIT=W in its environment
/// ```
extension ConfigurationReader {
    /// The sensor device classes a counter may have, each with the units Home Assistant accepts for it
    /// with `state_class: total_increasing`.
    static let counterUnits: [(deviceClass: String, units: [String])] = [
        ("energy", ["Wh", "kWh", "MWh", "GJ", "MJ"]),
        ("gas", ["m³", "ft³", "CCF"]),
        ("water", ["L", "gal", "m³", "ft³", "CCF"]),
        ("volume", ["L", "mL", "gal", "fl. oz.", "m³", "ft³", "CCF"]),
    ]
    /// The longest `unit:` of a counter, in characters.
    static let maximumUnitCharacters = 16
    /// The largest `per_unit:` of a counter, in pulses per unit.
    static let maximumPulsesPerUnit = 1e9
    /// A counter's actions' policy when an entry gives none: `coalesce`. A meter can pulse many times a
    /// second; a command still running when more pulses come runs once more after it, with the latest
    /// total and rate, as an encoder's does (its default too).
    static let defaultCounterActionPolicy = ActionPolicy.coalesce
    /// The shortest `flush:` and `publish_interval:` of a counter: 1 s, in nanoseconds.
    static let minimumCounterIntervalNs: Int64 = 1_000_000_000

    func readCounter(_ node: YAMLNode, key: String, index: Int, defaults: Defaults) throws(ConfigurationError) -> CounterSettings {
        let fields = try reader.mapping(node, key: key, allowed: ConfigurationLoader.counterKeys)
        let name = try inputName(fields, key: key, noun: "counter", index: index)
        let lineSettings = try lineSettings(fields, node: node, key: key, noun: "counter", example: 24, defaults: defaults)
        let active = try fields["active"].map { node throws(ConfigurationError) in try reader.choice(node, key: "\(key).active", allowed: ["low", "high"]) } ?? defaults.active ?? "low"
        let strategy = try fields["debounce"].map { node throws(ConfigurationError) in try reader.strategy(node, key: "\(key).debounce") }
            ?? defaults.debounce ?? DebounceConfiguration.defaultStrategy
        let perUnit = try fields["per_unit"].map { node throws(ConfigurationError) in try pulsesPerUnit(node, key: "\(key).per_unit") } ?? 1
        let unit = try fields["unit"].map { node throws(ConfigurationError) in try reader.string(node, key: "\(key).unit") }
        if let unit, unit.count > Self.maximumUnitCharacters, let node = fields["unit"] {
            throw reader.error(node, "\(key).unit", "a unit has at most \(Self.maximumUnitCharacters) characters; this one has \(unit.count): \(ConfigurationLoader.quoted(unit))")
        }
        var deviceClass: String?
        if let node = fields["device_class"] {
            let text = try reader.string(node, key: "\(key).device_class")
            let classes = Self.counterUnits.map(\.deviceClass)
            guard let units = Self.counterUnits.first(where: { $0.deviceClass == text })?.units else {
                throw reader.error(
                    node, "\(key).device_class",
                    "\(ConfigurationLoader.quoted(text)) is not a device class for a meter\(NearestNames.didYouMean(text, among: classes)); allowed: \(classes.joined(separator: ", ")) (or none)")
            }
            let allowed = "Home Assistant accepts \(units.joined(separator: ", ")) for `device_class: \(text)` (a total that only grows)"
            guard let unit else {
                throw reader.error(node, "\(key).unit", "`device_class: \(text)` needs `unit:`: \(allowed)")
            }
            guard units.contains(unit) else {
                throw reader.error(
                    fields["unit"] ?? node, "\(key).unit",
                    "\(ConfigurationLoader.quoted(unit)) is not a unit for `device_class: \(text)`\(Self.unitSuggestion(for: unit, among: units)); \(allowed)")
            }
            deviceClass = text
        }
        let flushIntervalNs = try fields["flush"].map { node throws(ConfigurationError) in
            try reader.duration(
                node, key: "\(key).flush", what: "a flush interval (how often at most the state file is written)", minimum: Self.minimumCounterIntervalNs)
        } ?? CounterSettings.defaultIntervalNs
        let publishIntervalNs = try fields["publish_interval"].map { node throws(ConfigurationError) in
            try reader.duration(
                node, key: "\(key).publish_interval", what: "a publish interval (how often at most the value goes to MQTT)", minimum: Self.minimumCounterIntervalNs)
        } ?? CounterSettings.defaultIntervalNs
        let rateTimeoutNs = try fields["timeout"].map { node throws(ConfigurationError) in
            try reader.duration(
                node, key: "\(key).timeout", what: "a timeout (how long without a pulse before the rate is 0)", minimum: Self.minimumCounterIntervalNs)
        } ?? MeterRateConfiguration.defaultTimeoutNs
        var counter = CounterSettings(
            name: name, lineSettings: lineSettings, debounce: DebounceConfiguration(both: strategy, activeLevel: active == "low" ? .activeLow : .activeHigh),
            perUnit: perUnit, unit: unit, deviceClass: deviceClass, flushIntervalNs: flushIntervalNs, publishIntervalNs: publishIntervalNs,
            rateTimeoutNs: rateTimeoutNs)
        if let node = fields["actions"] {
            let triggered: [(on: CounterTrigger, action: Action)] = try triggeredActions(
                node, key: "\(key).actions", owner: name, what: "a counter's", defaultPolicy: Self.defaultCounterActionPolicy)
            counter.actions = triggered.map { CounterActionConfiguration(on: $0.on, action: $0.action) }
        }
        return counter
    }

    /// `per_unit:`: a plain decimal number (`1000`, `0.5`), more than 0 and at most `maximumPulsesPerUnit`.
    private func pulsesPerUnit(_ node: YAMLNode, key: String) throws(ConfigurationError) -> Double {
        let text = try reader.string(node, key: key)
        let allowed = "pulses per unit, a number more than 0 and at most 1000000000 (whole or with a decimal point, e.g. 1000 for a meter of 1000 imp/kWh)"
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let plain = !text.isEmpty && text != "." && pieces.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard plain, let value = Double(text), value.isFinite else {
            throw reader.error(node, key, "\(ConfigurationLoader.quoted(text)) is not a plain number: \(allowed)")
        }
        guard value > 0, value <= Self.maximumPulsesPerUnit else {
            throw reader.error(node, key, "\(ConfigurationLoader.quoted(text)) is out of range: \(allowed)")
        }
        return value
    }

    /// " (did you mean m³?)" for `m3`, `M^3` or `kwh`: the unit written with other capitals, `3` for
    /// `³` or a `^`; else "".
    static func unitSuggestion(for text: String, among units: [String]) -> String {
        func folded(_ unit: String) -> String {
            String(unit.lowercased().filter { $0 != "^" && $0 != " " }.map { $0 == "3" ? "³" : $0 })
        }
        guard let nearest = units.first(where: { folded($0) == folded(text) }) else { return "" }
        return " (did you mean \(nearest)?)"
    }
}

extension ConfigurationLoader {
    /// The keys of a `counters:` entry.
    package static let counterKeys = [
        "name", "line", "chip", "bias", "active", "debounce", "kernel_debounce", "per_unit", "unit", "device_class", "flush", "publish_interval",
        "timeout", "actions",
    ]
}
