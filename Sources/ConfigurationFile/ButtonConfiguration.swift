import DebounceCore
import Settings
import YAMLDocument

/// Keys to send on one kind of event of a button: the button's `key:` (held from press to release), or
/// an action's `key:` in place of `run:` (tapped, except `on: hold`: held until the release).
package struct KeyActionConfiguration: Sendable, Hashable {
    package var on: ButtonEvent.Kind
    /// For clicks: only this count (nil: any).
    package var count: Int?
    /// Key codes, in the order they go down.
    package var keys: [UInt16]
    /// Down until the button's release (the button's own `key:`, and `on: hold`), else tapped.
    package var isHeld: Bool
}

/// One button: where it is, how it is debounced, which gestures it reports, and what runs on them.
package struct ButtonConfiguration: Sendable, Equatable {
    package var name: String
    /// Its line: chip, line, bias and kernel debouncing.
    package var lineSettings: LineSettings
    package var debounce: DebounceConfiguration
    package var gestures: GestureConfiguration
    /// The group this button belongs to, if any.
    package var group: String?
    package var actions: [ActionConfiguration]
    /// Keys the button sends: its own `key:` (as `on: press`) and its actions with `key:`.
    package var keys: [KeyActionConfiguration] = []
}

/// A command to run on one kind of event of a button.
package struct ActionConfiguration: Sendable, Equatable {
    /// The event kind that triggers it.
    package var on: ButtonEvent.Kind
    /// For clicks: only this count (nil: any).
    package var count: Int?
    package var action: Action
}

extension ButtonConfiguration: InputSettings {
    package static var kind: InputKindID { .button }
    package var watchedLines: [(role: Roster.Role, settings: LineSettings?)] { [(.single, lineSettings)] }
    package static var sectionExample: String { "`- name: door` entries with `line:`" }

    package static func read(_ node: YAMLNode, key: String, index: Int, context: ConfigurationReader.Context) throws(ConfigurationError) -> Self {
        try context.reader.readButton(node, key: key, index: index, defaults: context.defaults, groups: context.groups)
    }
}
