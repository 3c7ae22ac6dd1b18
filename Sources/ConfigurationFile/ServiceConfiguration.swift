import DebounceCore
import Settings

/// What `gpio-debounce run` runs: buttons, their groups, and actions, and inputs of every other kind
/// (`InputSections`). Read from YAML by `ConfigurationLoader`. Its inputs, one ordered list whatever
/// their kinds, and their lines are its `roster`.
public struct ServiceConfiguration: Sendable {
    /// The inputs, in the run's order, and their lines: made once, by the reader.
    package var roster: Roster
    /// Group name → lockout window in nanoseconds.
    package var groups: [String: Int64]
    /// The file it was read from, for messages.
    package var source: String
    /// The virtual keyboard's settings (`keyboard:`); a keyboard is made only if some button has keys.
    package var keyboard = KeyboardSettings()
    /// The MQTT broker and topics (`mqtt:`); nil: no MQTT.
    package var mqtt: MQTTSettings?
    /// The events socket other programs read the inputs from (`socket:`); on by default.
    package var socket = EventSocketSettings()
    /// ESPHome's native API, the device Home Assistant adds without a broker (`api:`); nil: none.
    package var api: ESPHomeAPISettings?
    /// Keys written in an old spelling, each where it was and how it is written now: warnings for
    /// `check` and `run` to print, not errors (the file loads as if written in the new spelling).
    package var deprecations: [ConfigurationError] = []
    /// `run:` programs (and `shell:`'s /bin/sh) that cannot be started on this machine, each where it is
    /// named, when the lookup notes them rather than refusing the file (`ProgramLookup.notesMissing`):
    /// for a simulation, which runs no action, and for `check` away from the machine that runs the file.
    package var missingPrograms: [ConfigurationError] = []
}

/// The virtual keyboard's settings (`keyboard:` at the top of a configuration).
package struct KeyboardSettings: Sendable, Hashable {
    /// The name the device gets (what `evtest` and desktops show).
    package var name = "gpio-debounce"
    /// Whether the kernel repeats a held key by itself (`EV_REP`); off by default, since a button's own
    /// `repeat:` gesture can send repeats instead.
    package var autorepeat = false

    /// The longest `name`, in bytes: the kernel's `UINPUT_MAX_NAME_SIZE` (80) less its NUL, as
    /// `UInputDevice.maximumNameBytes` (LinuxSys) reads it from the header.
    package static let maximumNameBytes = 79

    package init() {}
}
