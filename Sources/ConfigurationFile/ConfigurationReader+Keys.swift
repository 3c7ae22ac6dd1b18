import DebounceCore
import Settings
import YAMLDocument

/// The keyboard parts of a configuration: `keyboard:` at the top, `key:` on a button (held while it is
/// pressed) and `key:` in place of `run:` in an action (tapped; held until the release for `on: hold`).
extension ConfigurationReader {
    /// The most keys in one combination (`key: [KEY_LEFTCTRL, KEY_LEFTALT, KEY_DELETE]` is 3).
    static let maximumKeysPerCombination = 8

    /// `keyboard: {name: NAME, autorepeat: BOOL}`.
    func readKeyboard(_ node: YAMLNode) throws(ConfigurationError) -> KeyboardSettings {
        let fields = try reader.mapping(node, key: "keyboard", allowed: ["name", "autorepeat"])
        var settings = KeyboardSettings()
        if let name = fields["name"] {
            let text = try reader.name(name, key: "keyboard.name", what: "the keyboard's name")
            guard text.utf8.count <= KeyboardSettings.maximumNameBytes else {
                throw reader.error(name, "keyboard.name", "the kernel keeps at most \(KeyboardSettings.maximumNameBytes) bytes of a device's name; this one has \(text.utf8.count)")
            }
            settings.name = text
        }
        if let autorepeat = fields["autorepeat"] {
            settings.autorepeat = try reader.choice(autorepeat, key: "keyboard.autorepeat", allowed: ["true", "false"]) == "true"
        }
        return settings
    }

    /// A key (`KEY_ENTER`) or a combination (`[KEY_LEFTCTRL, KEY_C]`), as codes in the written order.
    package func keys(_ node: YAMLNode, key: String) throws(ConfigurationError) -> [UInt16] {
        let items: [(YAMLNode, String)]
        if case .sequence(let list) = node {
            guard !list.isEmpty, list.count <= Self.maximumKeysPerCombination else {
                throw reader.error(node, key, "a combination lists 1 to \(Self.maximumKeysPerCombination) keys, e.g. [KEY_LEFTCTRL, KEY_C]")
            }
            items = list.enumerated().map { ($1, "\(key)[\($0)]") }
        } else {
            items = [(node, key)]
        }
        var codes: [UInt16] = []
        for (item, itemKey) in items {
            let name = try reader.string(item, key: itemKey)
            guard let code = KeyCode.code(named: name) else {
                throw reader.error(item, itemKey, "unknown key \(ConfigurationLoader.quoted(name))\(Self.keySuggestion(for: name)); names as in linux/input-event-codes.h, e.g. KEY_ENTER, KEY_PLAYPAUSE, BTN_SOUTH")
            }
            guard !codes.contains(code) else {
                throw reader.error(item, itemKey, "\(name) is already in this combination")
            }
            codes.append(code)
        }
        return codes
    }

    /// An action with `key:` instead of `run:`; `on` and `count` already read.
    package func keyAction(_ fields: [String: YAMLNode], node: YAMLNode, key: String, on: ButtonEvent.Kind, count: Int?) throws(ConfigurationError) -> KeyActionConfiguration {
        for other in ["run", "shell"] where fields[other] != nil {
            throw reader.error(node, key, "give either `key:` (keys to send) or `\(other):` (a command to run), not both; two entries with the same `on:` can do both")
        }
        for other in ["policy", "limit", "timeout"] {
            if let extra = fields[other] {
                throw reader.error(extra, "\(key).\(other)", "`\(other)` goes with `run:` or `shell:`; keys are sent at once and never wait")
            }
        }
        guard let keysNode = fields["key"] else { throw reader.error(node, key, "needs `key:`") }
        return KeyActionConfiguration(on: on, count: count, keys: try keys(keysNode, key: "\(key).key"), isHeld: on == .hold)
    }

    /// " (did you mean KEY_ENTER?)": the nearest known name (the same in capitals or with its `KEY_` or `BTN_`
    /// prefix, else the closest within two edits), or "" if none is near.
    static func keySuggestion(for name: String) -> String {
        let upper = name.uppercased()
        let candidates = [upper, "KEY_" + upper, "BTN_" + upper].filter { KeyCode.code(named: $0) != nil }
        guard let nearest = candidates.first else { return NearestNames.didYouMean(name, among: KeyCode.allNames) }
        return " (did you mean \(nearest)?)"
    }
}
