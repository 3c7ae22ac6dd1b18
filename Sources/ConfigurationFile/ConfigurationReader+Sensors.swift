import DebounceCore
import Settings
import YAMLDocument

/// `sensors:` and `counters:`, the contacts and meters of a configuration:
///
/// ```yaml
/// sensors:
///   - name: front-door
///     line: GPIO23
///     device_class: door         # Home Assistant's binary_sensor device class
///     debounce: defer:50ms       # the default; `defaults.debounce` does not apply
///     on_delay: 2s               # "on" only once the door has stayed open 2 s
///     inverted: false            # "on" is the line high (an NC reed with a pull-up, opened)
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
    /// Home Assistant's binary_sensor device classes, as `device_class:` of a sensor takes them.
    static let sensorDeviceClasses = [
        "battery", "battery_charging", "carbon_monoxide", "cold", "connectivity", "door", "garage_door", "gas", "heat", "light", "lock",
        "moisture", "motion", "moving", "occupancy", "opening", "plug", "power", "presence", "problem", "running", "safety", "smoke",
        "sound", "tamper", "update", "vibration", "window",
    ]
    /// The sensor device classes a counter may have, each with the units Home Assistant accepts for it
    /// with `state_class: total_increasing`.
    static let counterUnits: [(deviceClass: String, units: [String])] = [
        ("energy", ["Wh", "kWh", "MWh", "GJ", "MJ"]),
        ("gas", ["m³", "ft³", "CCF"]),
        ("water", ["L", "gal", "m³", "ft³", "CCF"]),
        ("volume", ["L", "mL", "gal", "fl. oz.", "m³", "ft³", "CCF"]),
    ]
    /// A sensor's debounce strategy when it has no `debounce:`: `defer:50ms` (50 ms, both ways). Reed
    /// contacts and PIRs change seldom and chatter long, so a sensor's window is longer than a button's,
    /// and `defaults.debounce` (the buttons' default) does not apply.
    static let defaultSensorStrategy = DebounceStrategy.defer(windowNs: 50_000_000)
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

    // MARK: Sensors

    func readSensor(_ node: YAMLNode, key: String, index: Int, defaults: Defaults) throws(ConfigurationError) -> SensorSettings {
        let fields = try reader.mapping(node, key: key, allowed: ConfigurationLoader.sensorKeys)
        let name = try inputName(fields, key: key, noun: "sensor", index: index)
        let lineSettings = try lineSettings(fields, node: node, key: key, noun: "sensor", example: 23, defaults: defaults)
        let strategy = try fields["debounce"].map { node throws(ConfigurationError) in try reader.strategy(node, key: "\(key).debounce") } ?? Self.defaultSensorStrategy
        let inverted = try fields["inverted"].map { node throws(ConfigurationError) in
            try reader.choice(node, key: "\(key).inverted", allowed: ["true", "false"]) == "true"
        } ?? false
        var contact = ContactConfiguration()
        if let node = fields["on_delay"] {
            contact.onDelayNs = try reader.duration(node, key: "\(key).on_delay", what: "an on delay (how long the sensor must stay on before it is reported on; 0 for none)", minimum: 0)
        }
        if let node = fields["off_delay"] {
            contact.offDelayNs = try reader.duration(node, key: "\(key).off_delay", what: "an off delay (how long the sensor must stay off before it is reported off; 0 for none)", minimum: 0)
        }
        var deviceClass: String?
        if let node = fields["device_class"] {
            let text = try reader.string(node, key: "\(key).device_class")
            guard Self.sensorDeviceClasses.contains(text) else {
                throw reader.error(
                    node, "\(key).device_class",
                    "\(ConfigurationLoader.quoted(text)) is not a Home Assistant binary_sensor device class\(NearestNames.didYouMean(text, among: Self.sensorDeviceClasses)); allowed: \(Self.sensorDeviceClasses.joined(separator: ", "))")
            }
            deviceClass = text
        }
        var sensor = SensorSettings(
            name: name, lineSettings: lineSettings,
            debounce: DebounceConfiguration(press: strategy, release: strategy, activeLevel: inverted ? .activeLow : .activeHigh),
            contact: contact, deviceClass: deviceClass)
        if let node = fields["actions"] {
            let triggered: [(on: ContactTrigger, action: Action)] = try triggeredActions(node, key: "\(key).actions", owner: name, what: "a sensor's")
            sensor.actions = triggered.map { ContactActionConfiguration(on: $0.on, action: $0.action) }
        }
        return sensor
    }

    // MARK: Counters

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

    // MARK: Shared

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
