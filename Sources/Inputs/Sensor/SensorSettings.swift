import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// One contact of a configuration (`sensors:`): a door or window reed switch, a PIR's output, a leak
/// sensor. Its state is `on` or `off` (no gestures), reported once at the start and then at every
/// change that lasted its delay (`ContactConfiguration`).
package struct SensorSettings: Sendable, Equatable {
    package var name: String
    /// Its line: chip, line, bias and kernel debouncing.
    package var lineSettings: LineSettings
    /// How the line is debounced. Its active level is "on": high unless `inverted: true`.
    package var debounce: DebounceConfiguration
    /// `on_delay` and `off_delay`, in nanoseconds.
    package var contact: ContactConfiguration
    /// Home Assistant's binary-sensor device class (`door`, `window`, `motion`...), or nil for none.
    package var deviceClass: String?
    /// Commands its changes run (`actions:` with `on: on`, `off` or `change`).
    package var actions: [ContactActionConfiguration] = []

    package init(
        name: String, lineSettings: LineSettings, debounce: DebounceConfiguration, contact: ContactConfiguration = ContactConfiguration(),
        deviceClass: String? = nil
    ) {
        self.name = name
        self.lineSettings = lineSettings
        self.debounce = debounce
        self.contact = contact
        self.deviceClass = deviceClass
    }
}

/// A command a contact's changes run: `on: on` (a door opened), `on: off`, or `on: change`.
package struct ContactActionConfiguration: Sendable, Equatable {
    package var on: ContactTrigger
    package var action: Action
}

extension SensorSettings: SingleLineSettings {
    package static var kind: InputKindID { .sensor }
    package static var sectionExample: String { "`- name: front-door` entries with `line:`" }
    package static var example: String { "`sensors: [{name: front-door, line: 23}]`" }

    package static func read(_ node: YAMLNode, key: String, index: Int, context: ConfigurationReader.Context) throws(ConfigurationError) -> Self {
        try context.reader.readSensor(node, key: key, index: index, defaults: context.defaults)
    }
}

extension ServiceConfiguration {
    /// Contacts (`sensors:`).
    package var sensors: [SensorSettings] { roster.inputs(of: SensorSettings.self).map(\.settings) }
}

extension Roster {
    /// The sensors (contacts), in order, each with its line.
    package var sensors: [(settings: SensorSettings, line: LineID)] { inputs(of: SensorSettings.self).map { ($0.settings, $0.lines[0]) } }
}

extension InputKindID {
    /// A contact (`sensors:`).
    package static let sensor = InputKindID("sensor")
}
