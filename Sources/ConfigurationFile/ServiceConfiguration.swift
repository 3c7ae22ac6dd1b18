import DebounceCore
import Settings

/// What `gpio-debounce run` runs: buttons, their groups, and actions; rotary encoders; contacts and
/// pulse counters. Read from YAML by `ConfigurationLoader`. Its inputs and their lines, in the run's
/// order, are its `roster`.
public struct ServiceConfiguration: Sendable {
    /// Buttons (`buttons:`).
    public var buttons: [ButtonConfiguration]
    /// Rotary encoders (`encoders:`).
    public var encoders: [EncoderSettings] = []
    /// Contacts (`sensors:`).
    public var sensors: [SensorSettings] = []
    /// Pulse counters (`counters:`).
    public var counters: [CounterSettings] = []
    /// Group name → lockout window in nanoseconds.
    public var groups: [String: Int64]
    /// The file it was read from, for messages.
    public var source: String
    /// The virtual keyboard's settings (`keyboard:`); a keyboard is made only if some button has keys.
    public var keyboard = KeyboardSettings()
    /// The MQTT broker and topics (`mqtt:`); nil: no MQTT.
    public var mqtt: MQTTSettings?
    /// Keys written in an old spelling, each where it was and how it is written now: warnings for
    /// `check` and `run` to print, not errors (the file loads as if written in the new spelling).
    public var deprecations: [ConfigurationError] = []
}

/// The virtual keyboard's settings (`keyboard:` at the top of a configuration).
public struct KeyboardSettings: Sendable, Hashable {
    /// The name the device gets (what `evtest` and desktops show).
    public var name = "gpio-debounce"
    /// Whether the kernel repeats a held key by itself (`EV_REP`); off by default, since a button's own
    /// `repeat:` gesture can send repeats instead.
    public var autorepeat = false

    /// The longest `name`, in bytes: the kernel's `UINPUT_MAX_NAME_SIZE` (80) less its NUL, as
    /// `UInputDevice.maximumNameBytes` (LinuxSys) reads it from the header.
    package static let maximumNameBytes = 79

    public init() {}
}

/// Keys to send on one kind of event of a button: the button's `key:` (held from press to release), or
/// an action's `key:` in place of `run:` (tapped, except `on: hold`: held until the release).
public struct KeyActionConfiguration: Sendable, Hashable {
    public var on: ButtonEvent.Kind
    /// For clicks: only this count (nil: any).
    public var count: Int?
    /// Key codes, in the order they go down.
    public var keys: [UInt16]
    /// Down until the button's release (the button's own `key:`, and `on: hold`), else tapped.
    public var isHeld: Bool
}

/// One button: where it is, how it is debounced, which gestures it reports, and what runs on them.
public struct ButtonConfiguration: Sendable {
    public var name: String
    /// Its line: chip, line, bias and kernel debouncing.
    package var lineSettings: LineSettings
    public var debounce: DebounceConfiguration
    public var gestures: GestureConfiguration
    /// The group this button belongs to, if any.
    public var group: String?
    public var actions: [ActionConfiguration]
    /// Keys the button sends: its own `key:` (as `on: press`) and its actions with `key:`.
    public var keys: [KeyActionConfiguration] = []
}

/// A command to run on one kind of event of a button.
public struct ActionConfiguration: Sendable {
    /// The event kind that triggers it.
    public var on: ButtonEvent.Kind
    /// For clicks: only this count (nil: any).
    public var count: Int?
    public var action: Action
}
