import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// `keypads:`, the matrix keypads of a configuration:
///
/// ```yaml
/// keypads:
///   - name: door
///     rows: [5, 6, 13, 19]           # pulled up; a key down reads its row low
///     columns: [12, 16, 20, 21]      # driven low one at a time while scanning
///     keys: ["123A", "456B", "789C", "*0#D"]
///     key_map: default               # type the keys on the virtual keyboard
///     code: {min_length: 4, end_keys: "#", clear_keys: "*", timeout: 5s}
///     actions:
///       - on: code
///         run: [/usr/local/bin/door-check]   # GPIO_CODE in its environment
/// ```
extension ConfigurationReader {
    /// The most rows, and the most columns, of a keypad (a row mask is 32 bits; 16 × 16 keys is plenty).
    static let maximumKeypadSide = 16
    /// The longest `scan_settle:` and its shortest: 1 µs to 100 ms, in nanoseconds.
    static let keypadSettleRangeNs = MatrixConfiguration.settleRangeNs
    /// The shortest `scan_interval:`: 1 ms, in nanoseconds.
    static let minimumScanIntervalNs = MatrixConfiguration.minimumScanIntervalNs

    func readKeypad(_ node: YAMLNode, key: String, index: Int, defaults: Defaults) throws(ConfigurationError) -> KeypadSettings {
        let fields = try reader.mapping(node, key: key, allowed: ConfigurationLoader.keypadKeys)
        let name = try inputName(fields, key: key, noun: "keypad", index: index)
        let rows = try keypadLines(fields, node: node, key: key, side: "rows", defaults: defaults, bias: nil)
        // Columns are driven or left floating, never pulled: a pull on a column would fight the scan.
        let columns = try keypadLines(fields, node: node, key: key, side: "columns", defaults: defaults, bias: .asIs)
        let layout = try keypadLayout(fields["keys"], node: node, key: key, rows: rows.count, columns: columns.count)
        var matrix = MatrixConfiguration(rows: rows.count, columns: columns.count)
        if let diodes = fields["diodes"] { matrix.diodes = try reader.choice(diodes, key: "\(key).diodes", allowed: ["true", "false"]) == "true" }
        if let settle = fields["scan_settle"] {
            matrix.settleNs = try reader.duration(settle, key: "\(key).scan_settle", what: "the settle time after driving a column", minimum: Self.keypadSettleRangeNs.lowerBound)
            guard matrix.settleNs <= Self.keypadSettleRangeNs.upperBound else {
                throw reader.error(settle, "\(key).scan_settle", "is at most 100ms (a few microseconds suit real keypads)")
            }
        }
        if let interval = fields["scan_interval"] {
            matrix.scanIntervalNs = try reader.duration(
                interval, key: "\(key).scan_interval", what: "the interval of the scans while a key is down", minimum: Self.minimumScanIntervalNs)
        }
        guard matrix.scanIntervalNs > matrix.scanDurationNs else {
            throw reader.error(
                fields["scan_interval"] ?? fields["scan_settle"] ?? node, "\(key).scan_interval",
                "a scan takes \(ConfigurationLoader.format(matrix.scanDurationNs)) (the settle time per column): make `scan_interval:` longer than that")
        }
        let both = try fields["debounce"].map { node throws(ConfigurationError) in try reader.strategy(node, key: "\(key).debounce") } ?? defaults.debounce
        let press = try fields["press"].map { node throws(ConfigurationError) in try reader.strategy(node, key: "\(key).press") } ?? defaults.press
        let release = try fields["release"].map { node throws(ConfigurationError) in try reader.strategy(node, key: "\(key).release") } ?? defaults.release
        let debounce = DebounceConfiguration(
            press: press ?? both ?? DebounceConfiguration.defaultStrategy, release: release ?? both ?? DebounceConfiguration.defaultStrategy,
            activeLevel: .activeLow)
        let gestures = try gestureConfiguration(fields, key: key)
        var keypad = KeypadSettings(
            name: name, rows: rows, columns: columns, layout: layout, matrix: matrix, debounce: debounce, gestures: gestures)
        let allKeys = Set(layout.joined())
        if let node = fields["code"] { keypad.code = try code(node, key: "\(key).code", keys: allKeys) }
        if let node = fields["publish_code"] {
            guard keypad.code != nil else { throw reader.error(node, "\(key).publish_code", "goes with `code:`") }
            keypad.publishCode = try reader.choice(node, key: "\(key).publish_code", allowed: ["true", "false"]) == "true"
        }
        if let node = fields["key_map"] { keypad.keyMap = try keyMap(node, key: "\(key).key_map", keys: allKeys) }
        if let node = fields["actions"] { keypad.actions = try keypadActions(node, key: "\(key).actions", keypad: keypad) }
        if let node = fields["code"] {
            let codeKeys = try codeKeys(of: keypad, node: node, key: "\(key).code")
            keypad.code?.allowedKeys = codeKeys
        }
        return keypad
    }

    /// `rows:` or `columns:`: a list of 1 to 16 lines, each with the keypad's `chip:` and `bias:`
    /// (`bias` fixes it: the columns').
    private func keypadLines(
        _ fields: [String: YAMLNode], node: YAMLNode, key: String, side: String, defaults: Defaults, bias: Bias?
    ) throws(ConfigurationError) -> [LineSettings] {
        guard let list = fields[side] else {
            throw reader.error(node, key, "a keypad needs `rows:` and `columns:` (lists of lines, e.g. rows: [5, 6, 13, 19], columns: [12, 16, 20, 21])")
        }
        guard case .sequence(let items) = list, (1...Self.maximumKeypadSide).contains(items.count) else {
            throw reader.error(list, "\(key).\(side)", "must be a list of 1 to \(Self.maximumKeypadSide) lines, e.g. [5, 6, 13, 19]")
        }
        var lines: [LineSettings] = []
        for (index, item) in items.enumerated() {
            var settings = try lineSettings(line: try reader.line(item, key: "\(key).\(side)[\(index)]"), fields: fields, key: key, defaults: defaults, withKernelDebounce: false)
            if let bias { settings.bias = bias }
            lines.append(settings)
        }
        return lines
    }

    /// `keys:`: one string per row, one character per column; the standard layout of a 4×4 or 4×3
    /// pad when not given.
    private func keypadLayout(_ node: YAMLNode?, node entry: YAMLNode, key: String, rows: Int, columns: Int) throws(ConfigurationError) -> [[Character]] {
        guard let node else {
            guard let standard = KeypadSettings.standardLayout(rows: rows, columns: columns) else {
                throw reader.error(
                    entry, key,
                    "a keypad of \(rows) rows and \(columns) columns needs `keys:`, one string per row, e.g. keys: \(Self.exampleLayout(rows: rows, columns: columns)) (only 4×4 and 4×3 pads have a default)")
            }
            return standard
        }
        guard case .sequence(let items) = node, items.count == rows else {
            throw reader.error(node, "\(key).keys", "must list \(rows) strings, one per row, each of \(columns) keys, e.g. keys: \(Self.exampleLayout(rows: rows, columns: columns))")
        }
        var layout: [[Character]] = []
        var seen: Set<Character> = []
        for (index, item) in items.enumerated() {
            let text = try reader.string(item, key: "\(key).keys[\(index)]")
            let row = Array(text)
            guard row.count == columns else {
                throw reader.error(item, "\(key).keys[\(index)]", "has \(row.count) keys and the keypad \(columns) columns: one character per column")
            }
            for key_ in row {
                guard !key_.isWhitespace, !key_.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw reader.error(item, "\(key).keys[\(index)]", "a key is a visible character, not a space or a control character")
                }
                guard seen.insert(key_).inserted else {
                    throw reader.error(item, "\(key).keys[\(index)]", "the key \(ConfigurationLoader.quoted(String(key_))) is already in the layout: each key has its own character")
                }
            }
            layout.append(row)
        }
        return layout
    }

    /// A `keys:` for a pad of `rows` and `columns`, as written in YAML: the printed layout of a 4×4 or 4×3
    /// pad, else digits, then letters, row by row (`["123", "456", "789"]` for 3×3); the first 4 rows, then `…`.
    static func exampleLayout(rows: Int, columns: Int) -> String {
        let pool = Array("1234567890ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz*#")
        let layout = KeypadSettings.standardLayout(rows: rows, columns: columns)
            ?? (0..<min(rows, 4)).map { row in Array(pool[(row * columns)..<((row + 1) * columns)]) }
        let shown = layout.prefix(4).map { "\"\(String($0))\"" } + (rows > 4 ? ["…"] : [])
        return "[\(shown.joined(separator: ", "))]"
    }

    /// `code:`: PIN entry.
    private func code(_ node: YAMLNode, key: String, keys: Set<Character>) throws(ConfigurationError) -> CodeConfiguration {
        let fields = try reader.mapping(node, key: key, allowed: ["min_length", "max_length", "end_keys", "clear_keys", "back_keys", "allowed_keys", "timeout"])
        var code = CodeConfiguration()
        if let node = fields["min_length"] { code.minLength = try reader.integer(node, key: "\(key).min_length", range: 1...64) }
        if let node = fields["max_length"] { code.maxLength = try reader.integer(node, key: "\(key).max_length", range: code.minLength...64) }
        func keyList(_ name: String) throws(ConfigurationError) -> [Character]? {
            guard let node = fields[name] else { return nil }
            let text = try reader.string(node, key: "\(key).\(name)", allowEmpty: true, nullIsValue: true)
            for character in text where !keys.contains(character) {
                throw reader.error(node, "\(key).\(name)", "\(ConfigurationLoader.quoted(String(character))) is not a key of this keypad")
            }
            return Array(text)
        }
        if let end = try keyList("end_keys") { code.endKeys = end }
        if let clear = try keyList("clear_keys") { code.clearKeys = clear }
        if let back = try keyList("back_keys") { code.backKeys = back }
        code.allowedKeys = try keyList("allowed_keys")
        try checkOneRolePerKey(code, fields: fields, node: node, key: key)
        if code.endKeys.isEmpty, code.maxLength == nil {
            throw reader.error(node, key, "a code ends with an end key or at `max_length:`: give `end_keys:` or `max_length:`")
        }
        if let node = fields["timeout"] {
            code.timeoutNs = try reader.duration(node, key: "\(key).timeout", what: "the longest pause between a code's keys")
        }
        return code
    }

    /// Each key of `code` has one role: ending, clearing, shortening, or being part of the code. A key in
    /// two of `end_keys`, `clear_keys`, `back_keys` and `allowed_keys` (given or by default) is refused
    /// at the later list given.
    private func checkOneRolePerKey(_ code: CodeConfiguration, fields: [String: YAMLNode], node: YAMLNode, key: String) throws(ConfigurationError) {
        let roles: [(list: String, role: String, keys: [Character])] = [
            ("end_keys", "an end key", code.endKeys), ("clear_keys", "a clear key", code.clearKeys),
            ("back_keys", "a back key", code.backKeys), ("allowed_keys", "a key of the code", code.allowedKeys ?? []),
        ]
        for (index, later) in roles.enumerated() {
            for earlier in roles[..<index] {
                guard let both = later.keys.first(where: earlier.keys.contains) else { continue }
                let given = fields[later.list] != nil ? later : earlier
                let defaulted = fields[earlier.list] == nil ? earlier : later
                let written = fields[defaulted.list] != nil ? "" : " (`\(defaulted.list):` is \(ConfigurationLoader.quoted(String(defaulted.keys))) by default)"
                throw reader.error(
                    fields[given.list] ?? node, "\(key).\(given.list)",
                    "\(ConfigurationLoader.quoted(String(both))) is both \(earlier.role) and \(later.role)\(written): a key has one role; "
                        + "take it out of one list, e.g. \(given.list): \(ConfigurationLoader.quoted(String(given.keys.filter { $0 != both })))")
            }
        }
    }

    /// The keys a code is made of. A code's keys are secret (`?` in events), so a key with a role of its
    /// own, an action for it by name (`keys:` of an action on its events) or a keyboard key (`key_map:`),
    /// is none of them unless `allowed_keys:` lists it: its action or key would tell which key it was.
    /// `allowed_keys:` may list a key that types (the keypad is then a keyboard, on purpose), never one
    /// with its own action. Without `allowed_keys:`, the layout's keys in order that are no end, clear
    /// or back key and have no role of their own; refused when that leaves none.
    private func codeKeys(of keypad: KeypadSettings, node: YAMLNode, key: String) throws(ConfigurationError) -> [Character] {
        guard let code = keypad.code else { return [] }
        let ownKeys = keypad.keysWithOwnActions
        let fields = try reader.mapping(node, key: key, allowed: nil)
        if let allowed = code.allowedKeys {
            if let own = allowed.first(where: ownKeys.contains),
                let index = keypad.actions.firstIndex(where: { $0.on != .code && $0.keys?.contains(own) == true })
            {
                throw reader.error(
                    fields["allowed_keys"] ?? node, "\(key).allowed_keys",
                    "\(ConfigurationLoader.quoted(String(own))) has its own action (\(keypad.name)'s actions[\(index)]), which would tell it from the code's other keys (written `?`): "
                        + "take it out of `allowed_keys:`, e.g. allowed_keys: \(ConfigurationLoader.quoted(String(allowed.filter { $0 != own }))), or out of the action's `keys:`")
            }
            return allowed
        }
        let keys = keypad.layout.joined().filter { code.collects($0) && !ownKeys.contains($0) && keypad.keyMap[$0] == nil }
        guard !keys.isEmpty else {
            throw reader.error(
                node, key,
                "no key is left for a code: each key is an end, clear or back key, has its own action (`keys:`) or types a key (`key_map:`); list the code's keys in `allowed_keys:`, e.g. allowed_keys: '0123456789'")
        }
        return keys
    }

    /// `key_map:`: `default`, or a mapping of keys to key names (`{"1": KEY_1, "#": KEY_ENTER}`).
    private func keyMap(_ node: YAMLNode, key: String, keys: Set<Character>) throws(ConfigurationError) -> [Character: UInt16] {
        if case .scalar = node {
            _ = try reader.choice(node, key: key, allowed: ["default"])
            var map: [Character: UInt16] = [:]
            for character in keys { if let code = KeypadKeyMap.defaultCode(for: character) { map[character] = code } }
            return map
        }
        let fields = try reader.mapping(node, key: key, allowed: nil)
        var map: [Character: UInt16] = [:]
        for (name, value) in reader.inFileOrder(fields) {
            guard name.count == 1, let character = name.first, keys.contains(character) else {
                throw reader.error(value, "\(key).\(name)", "\(ConfigurationLoader.quoted(name)) is not a key of this keypad (its keys: \(String(keys.sorted())))")
            }
            let codes = try self.keys(value, key: "\(key).\(name)")
            guard codes.count == 1, let code = codes.first else { throw reader.error(value, "\(key).\(name)", "one key name, e.g. KEY_1") }
            map[character] = code
        }
        return map
    }

    /// A keypad's `actions:`: `on:` a key's event as a button's (press, release, hold, long_release,
    /// repeat, click with `count:`) or `code`; `keys:` the keys it is for.
    private func keypadActions(_ node: YAMLNode, key: String, keypad: KeypadSettings) throws(ConfigurationError) -> [KeypadActionConfiguration] {
        guard case .sequence(let list) = node else { throw reader.error(node, key, "must be a list (`- on: code` entries)") }
        var actions: [KeypadActionConfiguration] = []
        for (index, actionNode) in list.enumerated() {
            let actionKey = "\(key)[\(index)]"
            let fields = try reader.mapping(actionNode, key: actionKey, allowed: ["on", "count", "keys", "run", "shell", "policy", "limit", "timeout"])
            let on: KeypadTrigger
            if let onNode = fields["on"], onNode.string == "code" {
                guard keypad.code != nil else { throw reader.error(onNode, "\(actionKey).on", "`on: code` needs the keypad's `code:`") }
                if let count = fields["count"] { throw reader.error(count, "\(actionKey).count", "`count` goes with `on: click` only") }
                on = .code
            } else {
                let (kind, count) = try trigger(fields, node: actionNode, key: actionKey, gestures: keypad.gestures, owner: "keypad")
                on = .key(kind, count: count)
            }
            var keys: Set<Character>?
            if let keysNode = fields["keys"] {
                guard on != .code else { throw reader.error(keysNode, "\(actionKey).keys", "`keys:` chooses keys for their events; a code has none") }
                let text = try reader.string(keysNode, key: "\(actionKey).keys")
                let layoutKeys = Set(keypad.layout.joined())
                for character in text where !layoutKeys.contains(character) {
                    throw reader.error(keysNode, "\(actionKey).keys", "\(ConfigurationLoader.quoted(String(character))) is not a key of this keypad")
                }
                keys = Set(text)
            }
            var command = try action(fields, node: actionNode, key: actionKey, input: keypad.name, on: .press, count: nil).action
            command.name = "\(keypad.name).\(on.name)"
            actions.append(KeypadActionConfiguration(on: on, keys: keys, action: command))
        }
        return actions
    }
}

extension ConfigurationLoader {
    /// The keys of a `keypads:` entry.
    package static let keypadKeys = [
        "name", "chip", "rows", "columns", "keys", "bias", "diodes", "scan_settle", "scan_interval", "debounce", "press", "release", "hold", "repeat",
        "clicks", "throttle", "key_map", "code", "publish_code", "actions",
    ]
}
