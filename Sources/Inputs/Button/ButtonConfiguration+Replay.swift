import ConfigurationFile
import EventOutput

extension ButtonConfiguration {
    /// A trace replayed through this button: its presses and releases, printed with its name.
    package var replayTarget: ReplayTarget? { ReplayTarget(counted: .presses, fields: EventFields([.text("button", name)])) }
}
