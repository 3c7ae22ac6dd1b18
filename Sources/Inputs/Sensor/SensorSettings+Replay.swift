import ConfigurationFile
import EventOutput

extension SensorSettings {
    package static var replayHelp: String? { "a sensor's states, after their delays" }

    /// A trace replayed through this contact: its changes, printed as states with its name.
    package var replayTarget: ReplayTarget? { ReplayTarget(counted: .changes, fields: EventFields([.text("sensor", name)]), printsStates: true) }
}
