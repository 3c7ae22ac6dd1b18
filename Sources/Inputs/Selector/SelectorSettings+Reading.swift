import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// `selectors:`, the selector switches of a configuration:
///
/// ```yaml
/// selectors:
///   - name: mode
///     lines: [GPIO5, GPIO6, GPIO13]   # one per position (one_hot), or bit 0 first (coded)
///     code: one_hot                   # one_hot (default), binary, gray or bcd
///     positions: [off, auto, on]      # names, the first for the lowest value (one_hot: 1; coded: 0)
///     settle: 20ms                    # how long the lines must hold still (default 20ms)
///     active: low                     # a line to ground reads active (default), or high
///     actions:
///       - {on: select, shell: 'logger "mode $GPIO_POSITION_NAME"'}
/// ```
extension ConfigurationReader {
    /// The most selectors: their lines count against the 64 lines of one request.
    static let maximumSelectors = 16
    /// The most lines of one selector (a reading is 31 bits).
    static let maximumSelectorLines = 31

    func readSelector(_ node: YAMLNode, key: String, index: Int, defaults: Defaults) throws(ConfigurationError) -> SelectorSettings {
        let fields = try reader.mapping(node, key: key, allowed: ConfigurationLoader.selectorKeys)
        let name = try inputName(fields, key: key, noun: "selector", index: index)
        let code = try selectorCode(fields, key: key)
        let fewest = code == .oneHot ? 2 : 1
        guard let linesNode = fields["lines"], case .sequence(let lineNodes) = linesNode, (fewest...Self.maximumSelectorLines).contains(lineNodes.count) else {
            throw reader.error(
                fields["lines"] ?? node, "\(key).lines",
                "a selector needs `lines:`, a list of \(fewest) to \(Self.maximumSelectorLines) lines (offsets like 5 or names like GPIO5): \(code == .oneHot ? "one per position" : "bit 0 first")")
        }
        var lines: [LineSettings] = []
        for (lineIndex, lineNode) in lineNodes.enumerated() {
            let line = try reader.line(lineNode, key: "\(key).lines[\(lineIndex)]")
            if let earlier = lines.firstIndex(where: { $0.line == line }) {
                throw reader.error(lineNode, "\(key).lines[\(lineIndex)]", "is already `lines[\(earlier)]`: each of a selector's lines is one position or one bit")
            }
            // One chip and bias for all; no kernel debouncing (the settle time outlasts the bounce).
            lines.append(try lineSettings(line: line, fields: fields, key: key, defaults: defaults, withKernelDebounce: false))
        }
        let settleNs = try fields["settle"].map { node throws(ConfigurationError) in
            try reader.duration(
                node, key: "\(key).settle",
                what: "the settle time (how long the lines must hold still before a reading counts; longer than the contacts' bounce and the gap between two positions)")
        } ?? SelectorConfiguration.defaultSettleNs
        let active = try fields["active"].map { node throws(ConfigurationError) in try reader.choice(node, key: "\(key).active", allowed: ["low", "high"]) } ?? defaults.active ?? "low"
        var configuration = SelectorConfiguration(code: code, lineCount: lines.count, settleNs: settleNs)
        let positions = try positionNames(fields["positions"], key: "\(key).positions", configuration: configuration)
        if !positions.isEmpty { configuration.highestValue = (code == .oneHot ? 1 : 0) + positions.count - 1 }
        var actions: [SelectorActionConfiguration] = []
        if let node = fields["actions"] {
            let triggered: [(on: SelectorTrigger, action: Action)] = try triggeredActions(node, key: "\(key).actions", owner: name, what: "a selector's")
            actions = triggered.map { SelectorActionConfiguration(on: $0.on, action: $0.action) }
        }
        return SelectorSettings(
            name: name, lines: lines, activeLevel: active == "low" ? .activeLow : .activeHigh, configuration: configuration, positions: positions, actions: actions)
    }

    /// `code:`, `one_hot` when absent.
    private func selectorCode(_ fields: [String: YAMLNode], key: String) throws(ConfigurationError) -> SelectorCode {
        guard let node = fields["code"] else { return .oneHot }
        switch try reader.choice(node, key: "\(key).code", allowed: ["one_hot", "binary", "gray", "bcd"]) {
        case "binary": return .binary
        case "gray": return .gray
        case "bcd": return .bcd
        default: return .oneHot
        }
    }

    /// `positions:`: at least two names, each once, no more than the lines can make; empty when absent.
    private func positionNames(_ node: YAMLNode?, key: String, configuration: SelectorConfiguration) throws(ConfigurationError) -> [String] {
        guard let node else { return [] }
        guard case .sequence(let items) = node, items.count >= 2 else {
            throw reader.error(node, key, "must be a list of at least two names, the first for the lowest position, e.g. `positions: [off, auto, on]`")
        }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            let name = try reader.string(item, key: "\(key)[\(index)]")
            if let earlier = names.firstIndex(of: name) {
                throw reader.error(item, "\(key)[\(index)]", "'\(name)' is already `positions[\(earlier)]`: give each position its own name")
            }
            names.append(name)
        }
        let lowest = configuration.code == .oneHot ? 1 : 0
        guard configuration.code.activeLines(forValue: lowest + names.count - 1, lineCount: configuration.lineCount) != nil else {
            throw reader.error(
                items[names.count - 1], "\(key)[\(names.count - 1)]",
                "names more positions than \(configuration.lineCount) lines can show in this code (\(Self.codeWord(configuration.code))): remove names, or list more `lines:`")
        }
        return names
    }

    /// `code`'s word as a configuration writes it: `one_hot`.
    static func codeWord(_ code: SelectorCode) -> String {
        switch code {
        case .oneHot: "one_hot"
        case .binary: "binary"
        case .gray: "gray"
        case .bcd: "bcd"
        }
    }
}

extension ConfigurationLoader {
    /// The keys of a `selectors:` entry.
    package static let selectorKeys = ["name", "lines", "chip", "bias", "active", "code", "positions", "settle", "actions"]
}
