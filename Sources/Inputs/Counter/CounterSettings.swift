import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// A command a counter's reports run: `on: pulse` (each counted pulse) or `on: rate` (each rate it
/// reports: at every pulse and when the rate falls with no pulse). Its policy is `coalesce` unless the
/// file says otherwise (`ConfigurationReader.defaultCounterActionPolicy`).
package struct CounterActionConfiguration: Sendable, Equatable {
    package var on: CounterTrigger
    package var action: Action
}

/// One pulse counter of a configuration (`counters:`): the pulse output of an electricity (S0), water
/// or gas meter. Each debounced press is one pulse; the total is kept across runs in a state file.
package struct CounterSettings: Sendable, Equatable {
    package var name: String
    /// Its line: chip, line, bias and kernel debouncing.
    package var lineSettings: LineSettings
    /// How the line is debounced; a press (the line at its active level, low unless `active: high`) is a pulse.
    package var debounce: DebounceConfiguration
    /// Pulses per unit (1000 for a meter of 1000 imp/kWh): the value is the total over this.
    package var perUnit: Double
    /// The value's unit (`kWh`, `m³`, `L`), or nil for none.
    package var unit: String?
    /// Home Assistant's sensor device class (`energy`, `water`, `gas`), or nil for none.
    package var deviceClass: String?
    /// The state file is written at most this often while pulses come, in nanoseconds (and at every
    /// clean stop): a `kill -9` or a power cut loses at most this long's pulses.
    package var flushIntervalNs: Int64
    /// At most one state message per this many nanoseconds on MQTT (the latest value retained), and
    /// at most one report of the falling rate per this many in any output.
    package var publishIntervalNs: Int64
    /// `timeout:`: after this many nanoseconds without a pulse the rate is 0 (`MeterRateConfiguration`).
    package var rateTimeoutNs: Int64
    /// Commands its pulses and rates run (`actions:` with `on: pulse` or `on: rate`).
    package var actions: [CounterActionConfiguration] = []

    /// The default `flush:` and `publish_interval:`: 5 s.
    package static let defaultIntervalNs: Int64 = 5_000_000_000

    package init(
        name: String, lineSettings: LineSettings, debounce: DebounceConfiguration, perUnit: Double = 1, unit: String? = nil, deviceClass: String? = nil,
        flushIntervalNs: Int64 = defaultIntervalNs, publishIntervalNs: Int64 = defaultIntervalNs, rateTimeoutNs: Int64 = MeterRateConfiguration.defaultTimeoutNs
    ) {
        self.name = name
        self.lineSettings = lineSettings
        self.debounce = debounce
        self.perUnit = perUnit
        self.unit = unit
        self.deviceClass = deviceClass
        self.flushIntervalNs = flushIntervalNs
        self.publishIntervalNs = publishIntervalNs
        self.rateTimeoutNs = rateTimeoutNs
    }
}

extension CounterSettings: SingleLineSettings {
    package static var kind: InputKindID { .counter }
    package static var sectionExample: String { "`- name: energy` entries with `line:`" }
    package static var example: String { "`counters: [{name: energy, line: 24}]`" }

    package static func read(_ node: YAMLNode, key: String, index: Int, context: ConfigurationReader.Context) throws(ConfigurationError) -> Self {
        try context.reader.readCounter(node, key: key, index: index, defaults: context.defaults)
    }
}

extension ServiceConfiguration {
    /// Pulse counters (`counters:`).
    package var counters: [CounterSettings] { roster.inputs(of: CounterSettings.self).map(\.settings) }
}

extension Roster {
    /// The pulse counters, in order, each with its line.
    package var counters: [(settings: CounterSettings, line: LineID)] { inputs(of: CounterSettings.self).map { ($0.settings, $0.lines[0]) } }
}

extension InputKindID {
    /// A pulse counter (`counters:`).
    package static let counter = InputKindID("counter")
}
