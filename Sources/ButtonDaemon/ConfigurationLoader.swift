import DebounceCore
import GPIODBackend
import Sinks
import Yams

/// Reads a YAML configuration into a `ServiceConfiguration`, checking every key and value and naming
/// the file, line, column and key of any mistake, with what is allowed.
///
/// YAML (through jpsim/Yams, which keeps each node's line and column) rather than TOML: Home Assistant
/// and Node-RED users write YAML every day, and a list of buttons with nested gestures and actions reads
/// naturally in it.
public enum ConfigurationLoader {
    static let buttonKeys = [
        "name", "line", "chip", "bias", "active", "debounce", "press", "release", "kernel-debounce", "hold",
        "repeat", "clicks", "throttle", "group", "actions",
    ]
    static let defaultKeys = ["chip", "bias", "active", "debounce", "press", "release", "kernel-debounce"]
    static let actionKeys = ["on", "count", "run", "shell", "policy", "limit", "timeout"]

    /// Parses `text` (the contents of `file`).
    public static func load(_ text: String, file: String) throws(ConfigurationError) -> ServiceConfiguration {
        do {
            return try parse(text, file: file)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(file: file, line: nil, column: nil, key: "", message: "\(error)")
        }
    }

    private static func parse(_ text: String, file: String) throws -> ServiceConfiguration {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ConfigurationError(file: file, line: 1, column: 1, key: "", message: "the file is empty: it needs a `buttons:` list")
            }
            root = node
        } catch let error as ConfigurationError {
            throw error
        } catch let error as YamlError {
            throw ConfigurationError(file: file, line: nil, column: nil, key: "", message: "not valid YAML: \(error)")
        } catch {
            throw ConfigurationError(file: file, line: nil, column: nil, key: "", message: "not valid YAML: \(error)")
        }
        let reader = NodeReader(file: file)
        let top = try reader.mapping(root, key: "", allowed: ["defaults", "groups", "buttons"])

        var defaults: [String: Node] = [:]
        if let node = top["defaults"] { defaults = try reader.mapping(node, key: "defaults", allowed: defaultKeys) }

        var groups: [String: Int64] = [:]
        if let node = top["groups"] {
            for (name, value) in try reader.mapping(node, key: "groups", allowed: nil) {
                let group = try reader.mapping(value, key: "groups.\(name)", allowed: ["lockout"])
                guard let lockout = group["lockout"] else {
                    throw reader.error(value, "groups.\(name)", "a group needs `lockout: DURATION`, e.g. lockout: 500ms")
                }
                groups[name] = try reader.duration(lockout, key: "groups.\(name).lockout")
            }
        }

        guard let buttonsNode = top["buttons"] else {
            throw reader.error(root, "", "no `buttons:` list: there is nothing to watch")
        }
        guard case .sequence(let list) = buttonsNode, !list.isEmpty else {
            throw reader.error(buttonsNode, "buttons", "must be a list of buttons (`- name: ...` entries)")
        }
        var buttons: [ButtonConfiguration] = []
        for (index, node) in list.enumerated() {
            let key = "buttons[\(index)]"
            let fields = try reader.mapping(node, key: key, allowed: buttonKeys)
            func value(_ name: String) -> Node? { fields[name] ?? defaults[name] }
            let name = try fields["name"].map { try reader.string($0, key: "\(key).name") } ?? "button\(index + 1)"
            guard let lineNode = fields["line"] else { throw reader.error(node, key, "a button needs `line:` (an offset like 17, or a name like GPIO17)") }
            let line = try reader.string(lineNode, key: "\(key).line")
            if let duplicate = buttons.first(where: { $0.name == name }) {
                throw reader.error(node, "\(key).name", "the name '\(duplicate.name)' is used twice: give each button its own")
            }
            let both = try value("debounce").map { try reader.strategy($0, key: "\(key).debounce") } ?? DebounceConfiguration.defaultStrategy
            let active = try value("active").map { try reader.choice($0, key: "\(key).active", allowed: ["low", "high"]) } ?? "low"
            let debounce = DebounceConfiguration(
                press: try value("press").map { try reader.strategy($0, key: "\(key).press") } ?? both,
                release: try value("release").map { try reader.strategy($0, key: "\(key).release") } ?? both,
                activeLevel: active == "low" ? .activeLow : .activeHigh)
            let bias = try value("bias").map { Bias(rawValue: try reader.choice($0, key: "\(key).bias", allowed: Bias.allCases.map(\.rawValue))) ?? .pullUp } ?? .pullUp

            var gestures = GestureConfiguration()
            if let node = fields["hold"] { gestures.holdNs = try reader.duration(node, key: "\(key).hold") }
            if let node = fields["repeat"] {
                let repeatFields = try reader.mapping(node, key: "\(key).repeat", allowed: ["delay", "interval"])
                guard let interval = repeatFields["interval"] else { throw reader.error(node, "\(key).repeat", "needs `interval: DURATION` (and optionally `delay: DURATION`)") }
                gestures.repeatIntervalNs = try reader.duration(interval, key: "\(key).repeat.interval")
                gestures.repeatDelayNs = try repeatFields["delay"].map { try reader.duration($0, key: "\(key).repeat.delay") } ?? gestures.holdNs ?? 500_000_000
            }
            if let node = fields["clicks"] {
                let clickFields = try reader.mapping(node, key: "\(key).clicks", allowed: ["window", "policy", "max"])
                guard let window = clickFields["window"] else { throw reader.error(node, "\(key).clicks", "needs `window: DURATION` (e.g. 400ms)") }
                gestures.clickWindowNs = try reader.duration(window, key: "\(key).clicks.window")
                if let policy = clickFields["policy"] {
                    gestures.clickPolicy = GestureConfiguration.ClickPolicy(
                        rawValue: try reader.choice(policy, key: "\(key).clicks.policy", allowed: GestureConfiguration.ClickPolicy.allCases.map(\.rawValue))) ?? .immediate
                }
                if let max = clickFields["max"] { gestures.maxClickCount = try reader.integer(max, key: "\(key).clicks.max", range: 1...9) }
            }
            if let node = fields["throttle"] { gestures.throttleNs = try reader.duration(node, key: "\(key).throttle") }
            var group: String?
            if let node = fields["group"] {
                let name = try reader.string(node, key: "\(key).group")
                guard groups[name] != nil else {
                    throw reader.error(node, "\(key).group", "no group '\(name)' under `groups:`; defined: \(groups.keys.sorted().joined(separator: ", ").nonEmpty ?? "none")")
                }
                group = name
            }
            var actions: [ActionConfiguration] = []
            if let node = fields["actions"] {
                guard case .sequence(let actionList) = node else { throw reader.error(node, "\(key).actions", "must be a list (`- on: press` entries)") }
                for (actionIndex, actionNode) in actionList.enumerated() {
                    actions.append(try action(actionNode, key: "\(key).actions[\(actionIndex)]", button: name, gestures: gestures, reader: reader))
                }
            }
            buttons.append(ButtonConfiguration(
                name: name, chip: try value("chip").map { try reader.string($0, key: "\(key).chip") }, line: line, bias: bias,
                debounce: debounce, kernelDebounceNs: try value("kernel-debounce").map { try reader.duration($0, key: "\(key).kernel-debounce") } ?? 0,
                gestures: gestures, group: group, actions: actions))
        }
        return ServiceConfiguration(buttons: buttons, groups: groups, source: file)
    }

    private static func action(_ node: Node, key: String, button: String, gestures: GestureConfiguration, reader: NodeReader) throws -> ActionConfiguration {
        let fields = try reader.mapping(node, key: key, allowed: actionKeys)
        guard let onNode = fields["on"] else { throw reader.error(node, key, "an action needs `on:` (press, release, hold, repeat or click)") }
        let on = ButtonEvent.Kind(rawValue: try reader.choice(onNode, key: "\(key).on", allowed: ButtonEvent.Kind.allCases.map(\.rawValue))) ?? .press
        switch on {
        case .hold where gestures.holdNs == nil: throw reader.error(onNode, "\(key).on", "`on: hold` needs the button's `hold: DURATION`")
        case .repeat where gestures.repeatIntervalNs == nil: throw reader.error(onNode, "\(key).on", "`on: repeat` needs the button's `repeat: {interval: DURATION}`")
        case .click where gestures.clickWindowNs == nil: throw reader.error(onNode, "\(key).on", "`on: click` needs the button's `clicks: {window: DURATION}`")
        default: break
        }
        var count: Int?
        if let node = fields["count"] {
            guard on == .click else { throw reader.error(node, "\(key).count", "`count` goes with `on: click` only") }
            count = try reader.integer(node, key: "\(key).count", range: 1...9)
        }
        let arguments: [String]
        switch (fields["run"], fields["shell"]) {
        case (let run?, nil):
            guard case .sequence(let items) = run, !items.isEmpty else {
                throw reader.error(run, "\(key).run", "must be a list: the program and its arguments, e.g. [/usr/bin/logger, pressed] (no shell; use `shell:` for one)")
            }
            arguments = try items.enumerated().map { index, item in try reader.string(item, key: "\(key).run[\(index)]") }
        case (nil, let shell?):
            arguments = ["/bin/sh", "-c", try reader.string(shell, key: "\(key).shell")]
        case (.some, .some):
            throw reader.error(node, key, "give either `run:` (a list, no shell) or `shell:` (a command line for /bin/sh), not both")
        case (nil, nil):
            throw reader.error(node, key, "an action needs `run: [program, args...]` or `shell: \"command line\"`")
        }
        var policy = ActionPolicy.queue
        if let node = fields["policy"] {
            switch try reader.choice(node, key: "\(key).policy", allowed: ["queue", "drop", "parallel"]) {
            case "drop": policy = .drop
            case "parallel": policy = .parallel(try fields["limit"].map { try reader.integer($0, key: "\(key).limit", range: 1...64) } ?? 4)
            default: policy = .queue
            }
        }
        let timeout = try fields["timeout"].map { try reader.duration($0, key: "\(key).timeout") }
        let name = "\(button).\(on.rawValue)\(count.map { "\($0)" } ?? "")"
        return ActionConfiguration(on: on, count: count, action: Action(name: name, arguments: arguments, policy: policy, timeoutNs: timeout))
    }
}

/// Typed access to YAML nodes, with errors that point at the node.
struct NodeReader {
    let file: String

    func error(_ node: Node, _ key: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node.mark?.line, column: node.mark?.column, key: key, message: message)
    }

    /// A mapping's entries by key; keys outside `allowed` (if given) are an error listing the allowed ones.
    func mapping(_ node: Node, key: String, allowed: [String]?) throws(ConfigurationError) -> [String: Node] {
        guard case .mapping(let mapping) = node else { throw error(node, key, "must be a mapping of `key: value` lines") }
        var result: [String: Node] = [:]
        for (keyNode, value) in mapping {
            guard let name = keyNode.string else { throw error(keyNode, key, "keys must be plain words") }
            if let allowed, !allowed.contains(name) {
                throw error(keyNode, key, "unknown key '\(name)'; allowed: \(allowed.joined(separator: ", "))")
            }
            guard result[name] == nil else { throw error(keyNode, key, "the key '\(name)' appears twice") }
            result[name] = value
        }
        return result
    }

    func string(_ node: Node, key: String) throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node, !scalar.string.isEmpty else { throw error(node, key, "must be a plain value") }
        return scalar.string
    }

    func choice(_ node: Node, key: String, allowed: [String]) throws(ConfigurationError) -> String {
        let value = try string(node, key: key)
        guard allowed.contains(value) else { throw error(node, key, "'\(value)' is not allowed; allowed: \(allowed.joined(separator: ", "))") }
        return value
    }

    func duration(_ node: Node, key: String) throws(ConfigurationError) -> Int64 {
        let text = try string(node, key: key)
        do { return try DurationSyntax.parseNs(text) } catch { throw self.error(node, key, error.description) }
    }

    func strategy(_ node: Node, key: String) throws(ConfigurationError) -> DebounceStrategy {
        let text = try string(node, key: key)
        do { return try DebounceStrategy(parsing: text) } catch { throw self.error(node, key, error.description) }
    }

    func integer(_ node: Node, key: String, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let value = Int(try string(node, key: key)), range.contains(value) else {
            throw error(node, key, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
