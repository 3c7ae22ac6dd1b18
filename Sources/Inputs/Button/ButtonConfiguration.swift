import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

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

extension ButtonConfiguration: SingleLineSettings {
    package static var kind: InputKindID { .button }
    package static var sectionExample: String { "`- name: door` entries with `line:`" }
    package static var example: String { "`buttons: [{name: door, line: 17}]`" }

    package static func read(_ node: YAMLNode, key: String, index: Int, context: ConfigurationReader.Context) throws(ConfigurationError) -> Self {
        try context.reader.readButton(node, key: key, index: index, defaults: context.defaults, groups: context.groups)
    }
}

extension ServiceConfiguration {
    /// Buttons (`buttons:`), in the configuration's order.
    package var buttons: [ButtonConfiguration] { roster.inputs(of: ButtonConfiguration.self).map(\.settings) }
}

extension Roster {
    /// The buttons, in order, each with its line.
    package var buttons: [(settings: ButtonConfiguration, line: LineID)] { inputs(of: ButtonConfiguration.self).map { ($0.settings, $0.lines[0]) } }
}

extension InputKindID {
    /// A push button (`buttons:`).
    package static let button = InputKindID("button")
}
