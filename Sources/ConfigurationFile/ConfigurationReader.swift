#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import Settings
import YAMLDocument

/// One reading of one file: the YAML tree, then every section, with the checks that span inputs
/// (names and lines, over the roster: `checkNamesAndLines`; groups).
package struct ConfigurationReader {
    let file: String
    let text: String
    let programs: ProgramLookup?
    /// The kinds of input the file may list.
    let sections: InputSections
    package let reader: NodeReader

    package init(file: String, text: String, programs: ProgramLookup?, sections: InputSections) {
        self.file = file
        self.text = text
        self.programs = programs
        self.sections = sections
        self.reader = NodeReader(file: file)
    }

    /// What an input's entry is read with (`InputSettings.read`): this reading, and what the file's
    /// other sections give.
    package struct Context {
        package let reader: ConfigurationReader
        /// `defaults:`.
        package let defaults: Defaults
        /// `groups:`: each group's lockout, in nanoseconds, by its name.
        package let groups: [String: Int64]
    }

    /// The values `defaults:` gives, each with the node it came from.
    package struct Defaults {
        var chip: String?
        var bias: Bias?
        package var active: String?
        package var debounce: DebounceStrategy?
        package var press: DebounceStrategy?
        package var release: DebounceStrategy?
        var kernelDebounceNs: Int64?
    }

    func read() throws(ConfigurationError) -> ServiceConfiguration {
        let root = try compose()
        guard case .mapping(let mapping) = root else {
            throw ConfigurationLoader.notConfiguration(file, line: root.mark.line, "its top level is not a mapping of keys", sections: sections)
        }
        let names = mapping.keys.compactMap(\.string)
        guard names.contains(where: sections.topLevelKeys.contains) else {
            var reason = "its top-level mapping has none of the keys \(sections.topLevelKeys.joined(separator: ", "))"
            for keyNode in mapping.keys {
                guard let name = keyNode.string, let near = NearestNames.suggestions(for: name, among: sections.topLevelKeys).first else { continue }
                reason += " (the key on line \(keyNode.mark.line) looks like a misspelt `\(near)`)"
                break
            }
            throw ConfigurationLoader.notConfiguration(file, line: root.mark.line, reason, sections: sections)
        }
        let top = try reader.mapping(root, key: "", allowed: sections.topLevelKeys)
        let defaults = try top["defaults"].map { node throws(ConfigurationError) in try readDefaults(node) } ?? Defaults()
        let groups = try top["groups"].map { node throws(ConfigurationError) in try readGroups(node) } ?? [:]

        let inputs = try readInputs(top, root: root, context: Context(reader: self, defaults: defaults, groups: groups))
        let roster = Roster(inputs: inputs)
        try checkNamesAndLines(roster, top: top, root: root)
        guard roster.pinLines.count <= ConfigurationLoader.maximumLines else {
            // Each section's lines that are pins (a keypad's keys are not), in the run's order.
            var taken: [(section: String, lines: Int)] = []
            for (index, input) in roster.inputs.enumerated() {
                let lines = roster.lines(of: index).count { $0.settings != nil }
                guard lines > 0 else { continue }
                if taken.last?.section == input.kind.section { taken[taken.count - 1].lines += lines } else { taken.append((input.kind.section, lines)) }
            }
            let last = taken.last?.section ?? ""
            throw reader.error(
                top[last] ?? root, last,
                "at most \(ConfigurationLoader.maximumLines) lines in all (one line request holds at most 64), and these are \(roster.pinLines.count): "
                    + taken.map { "the \($0.section) take \($0.lines)" }.joined(separator: ", "))
        }
        var configuration = ServiceConfiguration(roster: roster, groups: groups, source: file)
        if let node = top["keyboard"] { configuration.keyboard = try readKeyboard(node) }
        if let node = top["mqtt"] { configuration.mqtt = try readMQTT(node) }
        if let node = top["socket"] { configuration.socket = try readSocket(node) }
        if let node = top["api"] { configuration.api = try readAPI(node) }
        configuration.deprecations = reader.notes.deprecations
        configuration.missingPrograms = reader.notes.missingPrograms
        return configuration
    }

    /// Every kind's section, in the run's order (`sections`), each entry read by its kind.
    /// A section may be an empty list when another lists inputs. When an entry cannot be read, the
    /// inputs before it are checked first (names, lines), so that the first mistake is the one told.
    private func readInputs(_ top: [String: YAMLNode], root: YAMLNode, context: Context) throws(ConfigurationError) -> [any InputSettings] {
        let listed = sections.kinds.filter { top[$0.kind.section] != nil }
        guard let first = listed.first else {
            throw reader.error(
                root, "",
                "there is nothing to watch: no list of inputs (\(sections.listed)); add e.g. \(sections.examples)")
        }
        func notAList(_ kind: any InputSettings.Type, _ node: YAMLNode) -> ConfigurationError {
            reader.error(node, kind.kind.section, "must be a list (\(kind.sectionExample)), at least one, at most \(kind.maximumEntries)")
        }
        var inputs: [any InputSettings] = []
        for kind in listed {
            let section = kind.kind.section
            guard let node = top[section], case .sequence(let list) = node else { throw notAList(kind, top[section] ?? root) }
            guard list.count <= kind.maximumEntries else {
                throw reader.error(list[kind.maximumEntries], section, "at most \(kind.maximumEntries) \(section); this is entry \(kind.maximumEntries + 1)")
            }
            for (index, item) in list.enumerated() {
                do throws(ConfigurationError) {
                    inputs.append(try kind.read(item, key: "\(section)[\(index)]", index: index, context: context))
                } catch {
                    try checkNamesAndLines(Roster(inputs: inputs), top: top, root: root)
                    throw error
                }
            }
        }
        guard !inputs.isEmpty else { throw notAList(first, top[first.kind.section] ?? root) }
        return inputs
    }

    // MARK: YAML

    private func compose() throws(ConfigurationError) -> YAMLNode {
        if let (line, column) = ConfigurationLoader.aliasedKey(text) {
            guard ConfigurationLoader.mentionsTopLevelKey(text, sections: sections) else {
                throw ConfigurationLoader.notConfiguration(file, line: line, "it uses a YAML alias or a list as a key (line \(line))", sections: sections)
            }
            throw ConfigurationError(
                file: file, line: line, column: column, key: "",
                message: "keys must be plain words, and this key is an alias (*name), a list or a mapping: refused before reading on, since with aliases such a key can expand without bound")
        }
        let node: YAMLNode?
        do {
            node = try YAMLNode.compose(text)
        } catch {
            throw yamlError(error)
        }
        guard let node else {
            let blank = text.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            throw ConfigurationError(
                file: file, line: nil, column: nil, key: "",
                message: "the file is empty\(blank ? "" : " (only comments)"): a configuration needs at least one list of inputs (\(sections.listed)), each input with its lines, e.g. \(sections.examples)")
        }
        return node
    }

    /// A YAML syntax error: where, what, and at most a short excerpt of the line, or, for a file that
    /// is not recognisably a configuration, the line number only.
    private func yamlError(_ error: YAMLError) -> ConfigurationError {
        var problem = "cannot be read as YAML"
        var context: String?
        var line: Int?, column: Int?
        switch error {
        case .syntax(let yamlProblem, let mark, let yamlContext):
            problem = yamlProblem
            (line, column) = (mark.line, mark.column)
            context = yamlContext.map { "\($0.text) at \($0.mark)" }
        case .nestedTooDeep(let limit, let mark, let yamlContext):
            problem = "lists and mappings nested more than \(limit) deep"
            (line, column) = (mark.line, mark.column)
            context = "\(yamlContext.text) at \(yamlContext.mark)"
        case .reader(let readerProblem, let byteOffset, let character):
            problem = readerProblem
            if let character { problem += " (\(ConfigurationLoader.quoted(String(character))))" }
            if let index = text.utf8.index(text.utf8.startIndex, offsetBy: byteOffset, limitedBy: text.utf8.endIndex)?.samePosition(in: text) {
                let before = text[..<index]
                line = 1 + before.count { $0 == "\n" || $0 == "\r\n" }
                column = 1 + before.reversed().prefix { $0 != "\n" && $0 != "\r\n" }.count
            }
        case .duplicateKey(let key, let mark, let first):
            problem = key.map { "the key \(ConfigurationLoader.quoted($0)) appears twice in one mapping" } ?? "a list or mapping appears twice as a key in one mapping"
            problem += " (first at line \(first.line), column \(first.column)): remove or rename this one"
            (line, column) = (mark.line, mark.column)
        case .aliasesExpandTooFar(let limit, let mark):
            problem = "its aliases (*name) stand for more than \(limit) values in all: refused, since aliases of lists of aliases can stand for billions"
            (line, column) = (mark.line, mark.column)
        case .outOfMemory:
            break
        }
        guard ConfigurationLoader.mentionsTopLevelKey(text, sections: sections) else {
            return ConfigurationLoader.notConfiguration(file, line: line, "it is not valid YAML (line \(line.map(String.init) ?? "?")) and has no top-level key of a configuration", sections: sections)
        }
        var message = "not valid YAML: \(problem)"
        if let context { message += " (\(context))" }
        if let line, let column, let excerpt = excerpt(line: line, column: column) { message += ", near \(excerpt)" }
        return ConfigurationError(file: file, line: line, column: column, key: "", message: message)
    }

    /// At most 24 characters of line `line`, from a few before `column`.
    private func excerpt(line: Int, column: Int) -> String? {
        guard line >= 1, let text = text.split(separator: "\n", maxSplits: line, omittingEmptySubsequences: false).dropFirst(line - 1).first else { return nil }
        let start = max(0, column - 1 - 8)
        var piece = text.dropFirst(start).prefix(24)
        if piece.hasSuffix("\r") { piece = piece.dropLast() }
        let trimmed = piece.drop { $0 == " " }
        guard !trimmed.isEmpty else { return nil }
        let quoted = ConfigurationLoader.quoted(trimmed, limit: 24)
        return start > 0 && trimmed.startIndex == piece.startIndex ? "'…" + quoted.dropFirst() : quoted
    }

    // MARK: Sections

    private func readDefaults(_ node: YAMLNode) throws(ConfigurationError) -> Defaults {
        let fields = try reader.mapping(node, key: "defaults", allowed: ConfigurationLoader.defaultKeys)
        var defaults = Defaults()
        if let node = fields["chip"] { defaults.chip = try reader.chip(node, key: "defaults.chip") }
        if let node = fields["bias"] { defaults.bias = try reader.bias(node, key: "defaults.bias") }
        if let node = fields["active"] { defaults.active = try reader.choice(node, key: "defaults.active", allowed: ["low", "high"]) }
        if let node = fields["debounce"] { defaults.debounce = try reader.strategy(node, key: "defaults.debounce") }
        if let node = fields["press"] { defaults.press = try reader.strategy(node, key: "defaults.press") }
        if let node = fields["release"] { defaults.release = try reader.strategy(node, key: "defaults.release") }
        if let node = fields["kernel_debounce"] { defaults.kernelDebounceNs = try reader.kernelDebounce(node, key: "defaults.kernel_debounce") }
        return defaults
    }

    private func readGroups(_ node: YAMLNode) throws(ConfigurationError) -> [String: Int64] {
        var groups: [String: Int64] = [:]
        guard case .mapping(let mapping) = node else { throw reader.error(node, "groups", "must be a mapping of `NAME: {lockout: DURATION}` lines") }
        for (nameNode, value) in mapping {
            let name = try reader.name(nameNode, key: "groups", what: "a group name")
            let key = "groups.\(name)"
            let group = try reader.mapping(value, key: key, allowed: ["lockout"])
            guard let lockout = group["lockout"] else {
                throw reader.error(value, key, "a group needs `lockout: DURATION` (from 1ms to 1h), e.g. lockout: 500ms")
            }
            groups[name] = try reader.duration(lockout, key: "\(key).lockout", what: "a group's lockout")
        }
        return groups
    }

    /// An action's `on:` and `count:`, checked against the gestures of its `owner` (what its kind calls
    /// an input of it, for the messages: `button`, `keypad`).
    package func trigger(
        _ fields: [String: YAMLNode], node: YAMLNode, key: String, gestures: GestureConfiguration, owner: String
    ) throws(ConfigurationError) -> (ButtonEvent.Kind, Int?) {
        guard let onNode = fields["on"] else { throw reader.error(node, key, "an action needs `on:` (press, release, hold, long_release, repeat or click)") }
        let on = ButtonEvent.Kind(rawValue: try reader.choice(onNode, key: "\(key).on", allowed: ButtonEvent.Kind.allCases.map(\.rawValue))) ?? .press
        switch on {
        case .hold where gestures.holdNs == nil: throw reader.error(onNode, "\(key).on", "`on: hold` needs the \(owner)'s `hold: DURATION`")
        case .longRelease where gestures.holdNs == nil:
            throw reader.error(onNode, "\(key).on", "`on: long_release` (the release after a hold) needs the \(owner)'s `hold: DURATION`")
        case .repeat where gestures.repeatIntervalNs == nil: throw reader.error(onNode, "\(key).on", "`on: repeat` needs the \(owner)'s `repeat: {interval: DURATION}`")
        case .click where gestures.clickWindowNs == nil: throw reader.error(onNode, "\(key).on", "`on: click` needs the \(owner)'s `clicks: {window: DURATION}`")
        default: break
        }
        var count: Int?
        if let node = fields["count"] {
            guard on == .click else { throw reader.error(node, "\(key).count", "`count` goes with `on: click` only") }
            let value = try reader.integer(node, key: "\(key).count", range: 1...ConfigurationLoader.maximumClickCount)
            if let max = gestures.maxClickCount, value > max {
                throw reader.error(node, "\(key).count", "count \(value) never happens: the \(owner)'s `clicks: {max: \(max)}` ends every sequence at \(max); allowed: 1 to \(max)")
            }
            count = value
        }
        return (on, count)
    }

    /// A program that cannot be started: refused, or noted in `notes.missingPrograms` when the lookup
    /// notes them (once per place: a mapping may be read more than once).
    private func missingProgram(_ problem: ConfigurationError) throws(ConfigurationError) {
        guard programs?.notesMissing == true else { throw problem }
        guard !reader.notes.missingPrograms.contains(where: { $0.line == problem.line && $0.column == problem.column }) else { return }
        reader.notes.missingPrograms.append(problem)
    }

    /// The command of an action of the input `input` (its name), run on `on` (`count` clicks): named
    /// `INPUT.ON[COUNT]` in the log.
    package func action(_ fields: [String: YAMLNode], node: YAMLNode, key: String, input: String, on: ButtonEvent.Kind, count: Int?) throws(ConfigurationError) -> ActionConfiguration {
        let arguments: [String]
        switch (fields["run"], fields["shell"]) {
        case (let run?, nil):
            guard case .sequence(let items) = run, let first = items.first else {
                throw reader.error(run, "\(key).run", "must be a list: the program and its arguments, e.g. [/usr/bin/logger, pressed] (no shell; use `shell:` for one)")
            }
            let program = try reader.program(first, key: "\(key).run[0]")
            var list = [program]
            for (index, item) in items.enumerated().dropFirst() {
                list.append(try reader.argument(item, key: "\(key).run[\(index)]"))
            }
            if let programs, let problem = programs.problem(with: program) {
                try missingProgram(reader.error(first, "\(key).run[0]", problem))
            }
            arguments = list
        case (nil, let shell?):
            let command = try reader.argument(shell, key: "\(key).shell", allowEmpty: false)
            if let programs, let problem = programs.problem(with: "/bin/sh") {
                try missingProgram(reader.error(shell, "\(key).shell", "`shell:` runs /bin/sh -c, but \(problem)"))
            }
            arguments = ["/bin/sh", "-c", command]
        case (.some, .some):
            throw reader.error(node, key, "give either `run:` (a list, no shell) or `shell:` (a command line for /bin/sh), not both")
        case (nil, nil):
            throw reader.error(node, key, "an action needs `run: [program, args...]`, `shell: \"command line\"` or `key: KEY_NAME`")
        }
        var policy = ActionPolicy.queue
        if let node = fields["policy"] {
            switch try reader.choice(node, key: "\(key).policy", allowed: ["queue", "drop", "parallel", "coalesce"]) {
            case "drop": policy = .drop
            case "coalesce": policy = .coalesce
            case "parallel":
                policy = .parallel(try fields["limit"].map { node throws(ConfigurationError) in
                    try reader.integer(node, key: "\(key).limit", range: 1...ConfigurationLoader.maximumParallelLimit)
                } ?? 4)
            default: policy = .queue
            }
        }
        if let limit = fields["limit"] {
            guard case .parallel = policy else {
                throw reader.error(limit, "\(key).limit", "`limit` goes with `policy: parallel` only (how many runs at once, 1 to \(ConfigurationLoader.maximumParallelLimit))")
            }
        }
        let timeout = try fields["timeout"].map { node throws(ConfigurationError) in try reader.duration(node, key: "\(key).timeout", what: "a timeout") }
        let name = "\(input).\(on.rawValue)\(count.map { "\($0)" } ?? "")"
        return ActionConfiguration(on: on, count: count, action: Action(name: name, arguments: arguments, policy: policy, timeoutNs: timeout))
    }
}

/// A button's line for the check that no two buttons share one: the chip as written (a number,
/// `gpiochipN` and `/dev/gpiochipN` are the same chip; no chip is the 40-pin header's chip for an
/// offset, whichever it is on the machine, and "the chip that has it" for a name), and the offset or name.
struct LineKey: Hashable, CustomStringConvertible {
    var chip: String?
    var line: String

    init(chip: String?, line: String) {
        let isOffset = Int(line) != nil
        var chip = chip
        if let written = chip {
            if let number = Int(written), number >= 0 {
                chip = "gpiochip\(number)"
            } else if written.hasPrefix("/dev/gpiochip"), let number = Int(written.dropFirst("/dev/gpiochip".count)) {
                chip = "gpiochip\(number)"
            }
        } else if isOffset {
            chip = Self.headerChip
        }
        self.chip = chip
        self.line = line
    }

    /// The chip of an offset without `chip:`.
    static let headerChip = "the 40-pin header's chip"

    var description: String {
        let line = Int(line) != nil ? "line \(line)" : "the line named \(ConfigurationLoader.quoted(line))"
        if chip == Self.headerChip { return "\(line) of \(Self.headerChip)" }
        return chip.map { "\(line) of \(ConfigurationLoader.quoted($0))" } ?? "\(line) (on the chip that has it)"
    }
}
