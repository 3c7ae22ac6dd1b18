import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// `sensors:`, the contacts of a configuration:
///
/// ```yaml
/// sensors:
///   - name: front-door
///     line: GPIO23
///     device_class: door         # Home Assistant's binary_sensor device class
///     debounce: defer:50ms       # the default; `defaults.debounce` does not apply
///     on_delay: 2s               # "on" only once the door has stayed open 2 s
///     inverted: false            # "on" is the line high (an NC reed with a pull-up, opened)
/// ```
extension ConfigurationReader {
    /// Home Assistant's binary_sensor device classes, as `device_class:` of a sensor takes them.
    static let sensorDeviceClasses = [
        "battery", "battery_charging", "carbon_monoxide", "cold", "connectivity", "door", "garage_door", "gas", "heat", "light", "lock",
        "moisture", "motion", "moving", "occupancy", "opening", "plug", "power", "presence", "problem", "running", "safety", "smoke",
        "sound", "tamper", "update", "vibration", "window",
    ]
    /// A sensor's debounce strategy when it has no `debounce:`: `defer:50ms` (50 ms, both ways). Reed
    /// contacts and PIRs change seldom and chatter long, so a sensor's window is longer than a button's,
    /// and `defaults.debounce` (the buttons' default) does not apply.
    static let defaultSensorStrategy = DebounceStrategy.defer(windowNs: 50_000_000)

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
}

extension ConfigurationLoader {
    /// The keys of a `sensors:` entry.
    package static let sensorKeys = ["name", "line", "chip", "bias", "debounce", "kernel_debounce", "on_delay", "off_delay", "inverted", "device_class", "actions"]
}
