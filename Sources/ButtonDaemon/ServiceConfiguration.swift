import DebounceCore
import GPIODBackend
import Sinks

/// What `gpio-debounce run` runs: buttons, their groups, and actions. Read from YAML by `ConfigurationLoader`.
public struct ServiceConfiguration: Sendable {
    public var buttons: [ButtonConfiguration]
    /// Group name → lockout window in nanoseconds.
    public var groups: [String: Int64]
    /// The file it was read from, for messages.
    public var source: String
}

/// One button: where it is, how it is debounced, which gestures it reports, and what runs on them.
public struct ButtonConfiguration: Sendable {
    public var name: String
    /// The chip as the user wrote it (path, name, number or label), or nil for the default.
    public var chip: String?
    /// The line: an offset or a name.
    public var line: String
    public var bias: Bias
    public var debounce: DebounceConfiguration
    /// Kernel debouncing (libgpiod 2), in nanoseconds; 0 for none.
    public var kernelDebounceNs: Int64
    public var gestures: GestureConfiguration
    /// The group this button belongs to, if any.
    public var group: String?
    public var actions: [ActionConfiguration]
}

/// A command to run on one kind of event of a button.
public struct ActionConfiguration: Sendable {
    /// The event kind that triggers it.
    public var on: ButtonEvent.Kind
    /// For clicks: only this count (nil: any).
    public var count: Int?
    public var action: Action
}
