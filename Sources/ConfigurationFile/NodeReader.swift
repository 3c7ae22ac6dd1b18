#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import Settings
import YAMLDocument

/// Typed access to YAML nodes, with errors that point at the node and say what is allowed.
package struct NodeReader {
    let file: String
    /// What one reading notes without refusing the file, shared by the copies of its reader.
    let notes = Notes()

    /// The notes of one reading, each where it is in the file, in file order.
    package final class Notes {
        /// Keys in an old spelling (`ConfigurationLoader.renamedKeys`).
        var deprecations: [ConfigurationError] = []
        /// Programs that cannot be started here, when the lookup notes them (`ProgramLookup.notesMissing`).
        var missingPrograms: [ConfigurationError] = []
    }

    package func error(_ node: YAMLNode, _ key: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node.mark.line, column: node.mark.column, key: key, message: message)
    }

    /// A mapping's entries by key; keys outside `allowed` (if given) are an error listing the allowed ones.
    /// A key in an old spelling counts as the key now, with a note (`notes.deprecations`).
    package func mapping(_ node: YAMLNode, key: String, allowed: [String]?) throws(ConfigurationError) -> [String: YAMLNode] {
        guard case .mapping(let mapping) = node else { throw error(node, key, "must be a mapping of `key: value` lines") }
        var result: [String: YAMLNode] = [:]
        var keyNodes: [String: YAMLNode] = [:]
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else { throw error(keyNode, key, "keys must be plain words") }
            var name = scalar.string
            if let renamed = ConfigurationLoader.renamedKeys[name], allowed?.contains(renamed) ?? true {
                let path = key.isEmpty ? name : "\(key).\(name)"
                let note = error(keyNode, path, "`\(name)` is now written `\(renamed)` (keys are snake_case, as in Home Assistant and ESPHome); the old spelling still works for now")
                // A mapping may be read more than once (a button's: for itself, then for its name and line).
                if !notes.deprecations.contains(where: { $0.line == note.line && $0.column == note.column }) { notes.deprecations.append(note) }
                name = renamed
            }
            if let allowed, !allowed.contains(name) {
                throw error(keyNode, key, "unknown key \(ConfigurationLoader.quoted(name))\(NearestNames.didYouMean(name, among: allowed)); allowed: \(allowed.joined(separator: ", "))")
            }
            if let first = keyNodes[name] {
                throw error(keyNode, key, "the key \(ConfigurationLoader.quoted(name)) appears twice (first at line \(first.mark.line), column \(first.mark.column)): remove one")
            }
            result[name] = value
            keyNodes[name] = keyNode
        }
        return result
    }

    /// A mapping's entries as `mapping(_:key:allowed:)` gave them, in file order: what is checked entry by
    /// entry is refused at the first bad one, the same one every reading (a dictionary's order is not).
    /// Values at one place (aliases of one anchor) go by key.
    package func inFileOrder(_ fields: [String: YAMLNode]) -> [(key: String, value: YAMLNode)] {
        fields.sorted { ($0.value.mark.line, $0.value.mark.column, $0.key) < ($1.value.mark.line, $1.value.mark.column, $1.key) }
    }

    /// A scalar's text. Plain `~`, `null` and nothing at all are no value; a NUL byte is never allowed
    /// (no name or argument can carry one); other control characters only where `controls` says.
    package func string(_ node: YAMLNode, key: String, allowEmpty: Bool = false, controls: Bool = false, nullIsValue: Bool = false) throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node else {
            throw error(node, key, "must be a single value, not a \(node.isSequence ? "list" : "mapping")")
        }
        let text = scalar.string
        if scalar.style == .plain, !nullIsValue, ["", "~", "null", "Null", "NULL"].contains(text) {
            throw error(node, key, "has no value")
        }
        if text.isEmpty, !allowEmpty { throw error(node, key, "cannot be empty") }
        if text.unicodeScalars.contains("\0") {
            throw error(node, key, "contains a NUL byte (\\0): no name, argument or command can carry one")
        }
        if !controls, let control = text.unicodeScalars.first(where: ConfigurationLoader.isControl) {
            throw error(node, key, "contains a control character (\(ConfigurationLoader.quoted(String(control)))), which is not allowed here: \(ConfigurationLoader.quoted(text))")
        }
        return text
    }

    /// A button or group name: 1 to 64 characters, no control characters.
    package func name(_ node: YAMLNode, key: String, what: String) throws(ConfigurationError) -> String {
        let text = try string(node, key: key)
        guard text.count <= ConfigurationLoader.maximumNameCharacters else {
            throw error(node, key, "\(what) has at most \(ConfigurationLoader.maximumNameCharacters) characters; this one has \(text.count): \(ConfigurationLoader.quoted(text))")
        }
        return text
    }

    package func choice(_ node: YAMLNode, key: String, allowed: [String]) throws(ConfigurationError) -> String {
        let value = try string(node, key: key)
        guard allowed.contains(value) else { throw error(node, key, "\(ConfigurationLoader.quoted(value)) is not allowed; allowed: \(allowed.joined(separator: ", "))") }
        return value
    }

    /// A bias as `Bias(spelling:)` reads it: libgpiod 2's names, and 1.6's `disable`.
    func bias(_ node: YAMLNode, key: String) throws(ConfigurationError) -> Bias {
        if let bias = Bias(spelling: try string(node, key: key)) { return bias }
        return Bias(rawValue: try choice(node, key: key, allowed: Bias.allCases.map(\.rawValue))) ?? .pullUp
    }

    /// A duration from `minimum` (1 ms unless said) to 1 h.
    package func duration(_ node: YAMLNode, key: String, what: String, minimum: Int64 = ConfigurationLoader.minimumDurationNs, why: String = "") throws(ConfigurationError) -> Int64 {
        let range = "from \(ConfigurationLoader.format(minimum)) to 1h"
        let text = try string(node, key: key)
        if text.hasPrefix("-") {
            throw error(node, key, "durations cannot be negative: \(what) is \(range), e.g. \(ConfigurationLoader.format(max(minimum, 500_000_000)))")
        }
        let ns: Int64
        do {
            ns = try DurationSyntax.parseNs(text)
        } catch .durationTooLong {
            throw error(node, key, "\(ConfigurationLoader.quoted(text)) is too long: \(what) is \(range)")
        } catch {
            throw self.error(node, key, "\(ConfigurationLoader.message(error)); \(what) is \(range)")
        }
        guard ns >= minimum else {
            throw error(node, key, "\(ConfigurationLoader.quoted(text)) is too short: \(what) is \(range)\(why)")
        }
        return ns
    }

    /// `kernel_debounce`: 0 (none), or whole microseconds from 1us to 1h (the kernel counts microseconds).
    func kernelDebounce(_ node: YAMLNode, key: String) throws(ConfigurationError) -> Int64 {
        let range = "0 (none) or whole microseconds from 1us to 1h"
        let text = try string(node, key: key)
        if text.hasPrefix("-") { throw error(node, key, "durations cannot be negative: kernel_debounce is \(range)") }
        let ns: Int64
        do {
            ns = try DurationSyntax.parseNs(text)
        } catch .durationTooLong {
            throw error(node, key, "\(ConfigurationLoader.quoted(text)) is too long: kernel_debounce is \(range)")
        } catch {
            throw self.error(node, key, "\(ConfigurationLoader.message(error)); kernel_debounce is \(range)")
        }
        guard ns % 1_000 == 0 else {
            throw error(node, key, "\(ConfigurationLoader.quoted(text)) is not a whole number of microseconds (the kernel counts microseconds): kernel-debounce is \(range)")
        }
        return ns
    }

    /// A debounce strategy, as on the command line (durations from 0 to 1h).
    package func strategy(_ node: YAMLNode, key: String) throws(ConfigurationError) -> DebounceStrategy {
        let text = try string(node, key: key)
        if text.contains("-") {
            throw error(node, key, "durations cannot be negative: write defer:DURATION, eager:DURATION or eager:DURATION,glitch:DURATION with durations from 0 to 1h, e.g. defer:10ms")
        }
        do { return try DebounceStrategy(parsing: text) } catch { throw self.error(node, key, "\(ConfigurationLoader.message(error)); durations from 0 to 1h") }
    }

    package func integer(_ node: YAMLNode, key: String, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        let text = try string(node, key: key)
        guard let value = Int(text), range.contains(value) else {
            throw error(node, key, "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(ConfigurationLoader.quoted(text))")
        }
        return value
    }

    /// `line:`: an offset (a plain whole number from 0 to 65535) or a line name (at most 31 bytes),
    /// as `LineSpelling` allows.
    package func line(_ node: YAMLNode, key: String) throws(ConfigurationError) -> String {
        let text = try string(node, key: key)
        do { return try LineSpelling.line(text) } catch { throw self.error(node, key, error.description) }
    }

    /// `chip:`: a number, `gpiochipN`, a path, or a label (at most 31 bytes), as `--chip` takes.
    func chip(_ node: YAMLNode, key: String) throws(ConfigurationError) -> String {
        let text = try string(node, key: key)
        let allowed = "a chip is a number (0), a name (gpiochip0), a path (/dev/gpiochip0) or a label (pinctrl-bcm2711)"
        if text.hasPrefix("-"), Int(text) != nil { throw error(node, key, "a chip number cannot be negative: \(allowed)") }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard text == "0" || !text.hasPrefix("0"), let number = Int(text), number <= ConfigurationLoader.maximumOffset else {
                throw error(node, key, "\(ConfigurationLoader.quoted(text)) is not a chip number: \(allowed)")
            }
            return text
        }
        if text.hasPrefix("gpiochip") {
            let number = text.dropFirst("gpiochip".count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw error(node, key, "\(ConfigurationLoader.quoted(text)) is not a chip name: write gpiochipN, e.g. gpiochip0; \(allowed)")
            }
            return text
        }
        if text.hasPrefix("/") {
            guard text.utf8.count < 4_096 else { throw error(node, key, "the path is longer than 4095 bytes: \(allowed)") }
            return text
        }
        guard text.utf8.count <= ConfigurationLoader.maximumKernelNameBytes else {
            throw error(node, key, "a chip label has at most \(ConfigurationLoader.maximumKernelNameBytes) bytes (the kernel's limit): \(ConfigurationLoader.quoted(text)) is longer; \(allowed)")
        }
        return text
    }

    /// `run[0]`: the program, a path or a name, with no control characters.
    func program(_ node: YAMLNode, key: String) throws(ConfigurationError) -> String {
        let text = try string(node, key: key)
        guard text.utf8.count <= 4_095 else { throw error(node, key, "the program's path is longer than 4095 bytes") }
        return text
    }

    /// An argument or a shell command: any text but a NUL byte, up to 128 KiB.
    func argument(_ node: YAMLNode, key: String, allowEmpty: Bool = true) throws(ConfigurationError) -> String {
        let text = try string(node, key: key, allowEmpty: allowEmpty, controls: true, nullIsValue: allowEmpty)
        guard text.utf8.count <= ConfigurationLoader.maximumArgumentBytes else {
            throw error(node, key, "is \(text.utf8.count) bytes: an argument or command has at most \(ConfigurationLoader.maximumArgumentBytes) bytes (the kernel's limit)")
        }
        return text
    }
}

extension ConfigurationLoader {
    /// What `DebounceSyntaxError` says, with the text it quotes shortened and escaped.
    static func message(_ error: DebounceSyntaxError) -> String {
        error.description { quoted($0) }
    }
}
