import ConfigurationFile
import EventOutput

extension SensorSettings {
    /// A trace replayed through this contact: its changes, printed as states with its name.
    package var replayTarget: ReplayTarget? { ReplayTarget(counted: .changes, fields: EventFields([.text("sensor", name)]), isContact: true) }
}
