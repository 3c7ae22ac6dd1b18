import ConfigurationFile
import EventOutput

extension ButtonConfiguration {
    package static var replayHelp: String? { "a button's debounce, gestures (hold, repeat, clicks) and group lockouts" }

    /// A trace replayed through this button: its presses and releases, printed with its name.
    package var replayTarget: ReplayTarget? { ReplayTarget(counted: .presses, fields: EventFields([.text("button", name)])) }
}
