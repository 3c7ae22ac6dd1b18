import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// `buttons:`, the push buttons of a configuration:
///
/// ```yaml
/// buttons:
///   - name: doorbell
///     line: GPIO17
///     debounce: defer:10ms
///     hold: 1s
///     clicks: {window: 300ms}
///     actions:
///       - {on: click, count: 2, run: [/usr/local/bin/chime, twice]}
/// ```
extension ConfigurationReader {
    /// One entry of `buttons:` (`key`, the `index`-th): its name and line, debouncing (its own, else
    /// `defaults:`), gestures, group (one of `groups`), keys and actions.
    func readButton(_ node: YAMLNode, key: String, index: Int, defaults: Defaults, groups: [String: Int64]) throws(ConfigurationError) -> ButtonConfiguration {
        let fields = try reader.mapping(node, key: key, allowed: ConfigurationLoader.buttonKeys)
        let name = try inputName(fields, key: key, noun: "button", index: index)
        let lineSettings = try lineSettings(fields, node: node, key: key, noun: "button", example: 17, defaults: defaults)

        let both = try fields["debounce"].map { node throws(ConfigurationError) in try reader.strategy(node, key: "\(key).debounce") } ?? defaults.debounce
        let press = try fields["press"].map { node throws(ConfigurationError) in try reader.strategy(node, key: "\(key).press") } ?? defaults.press
        let release = try fields["release"].map { node throws(ConfigurationError) in try reader.strategy(node, key: "\(key).release") } ?? defaults.release
        let active = try fields["active"].map { node throws(ConfigurationError) in try reader.choice(node, key: "\(key).active", allowed: ["low", "high"]) } ?? defaults.active ?? "low"
        let debounce = DebounceConfiguration(
            press: press ?? both ?? DebounceConfiguration.defaultStrategy,
            release: release ?? both ?? DebounceConfiguration.defaultStrategy,
            activeLevel: active == "low" ? .activeLow : .activeHigh)

        let gestures = try gestureConfiguration(fields, key: key)
        var group: String?
        if let node = fields["group"] {
            let name = try reader.name(node, key: "\(key).group", what: "a group name")
            guard groups[name] != nil else {
                let defined = groups.keys.sorted().map { ConfigurationLoader.quoted($0) }.joined(separator: ", ")
                throw reader.error(node, "\(key).group", "no group \(ConfigurationLoader.quoted(name)) under `groups:`; defined: \(defined.isEmpty ? "none" : defined)")
            }
            group = name
        }
        var actions: [ActionConfiguration] = []
        var keys: [KeyActionConfiguration] = []
        if let node = fields["key"] {
            keys.append(KeyActionConfiguration(on: .press, count: nil, keys: try self.keys(node, key: "\(key).key"), isHeld: true))
        }
        if let node = fields["actions"] {
            guard case .sequence(let actionList) = node else { throw reader.error(node, "\(key).actions", "must be a list (`- on: press` entries)") }
            for (actionIndex, actionNode) in actionList.enumerated() {
                let actionKey = "\(key).actions[\(actionIndex)]"
                let actionFields = try reader.mapping(actionNode, key: actionKey, allowed: ConfigurationLoader.actionKeys)
                let (on, count) = try trigger(actionFields, node: actionNode, key: actionKey, gestures: gestures, owner: "button")
                if actionFields["key"] != nil {
                    keys.append(try keyAction(actionFields, node: actionNode, key: actionKey, on: on, count: count))
                } else {
                    actions.append(try action(actionFields, node: actionNode, key: actionKey, input: name, on: on, count: count))
                }
            }
        }
        return ButtonConfiguration(name: name, lineSettings: lineSettings, debounce: debounce, gestures: gestures, group: group, actions: actions, keys: keys)
    }
}

extension ConfigurationLoader {
    /// The keys of a `buttons:` entry.
    package static let buttonKeys = [
        "name", "line", "chip", "bias", "active", "debounce", "press", "release", "kernel_debounce", "hold",
        "repeat", "clicks", "throttle", "group", "actions", "key",
    ]
}
