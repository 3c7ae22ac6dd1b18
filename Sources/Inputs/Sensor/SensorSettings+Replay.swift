import ConfigurationFile
import EventOutput

extension SensorSettings {
    package static var replayHelp: String? { "a sensor's states, after their delays" }

    /// A trace replayed through this contact: its changes, printed as states with its name.
    package var replayTarget: ReplayTarget? {
        let fields = EventFields([.text("sensor", name)])
        return ReplayTarget(counted: .changes, fields: fields, printer: SensorPrinter(line: 0, fields: fields))
    }
}
