#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore

/// Reads a YAML configuration into a `ServiceConfiguration`, checking every key and value and naming
/// the file, line, column and key of any mistake, with what is allowed.
///
/// YAML (through libyaml, whose events give each node's line and column) rather than TOML: Home Assistant
/// and Node-RED users write YAML every day, and a list of buttons with nested gestures and actions reads
/// naturally in it.
///
/// Every input is treated as hostile: a file that is not recognisably a configuration (binary data, or
/// YAML whose top-level mapping has none of `defaults`, `groups`, `buttons`) is reported by line number
/// only, never quoted; elsewhere the file's text appears only in short excerpts with control characters
/// escaped.
public enum ConfigurationLoader {
    static let defaultKeys = ["chip", "bias", "active", "debounce", "press", "release", "kernel_debounce"]
    /// Keys written in an older spelling → the key now. Keys are snake_case, as Home Assistant and
    /// ESPHome write theirs; an old spelling still loads, with a note in `deprecations`.
    static let renamedKeys = ["kernel-debounce": "kernel_debounce"]
    package static let actionKeys = ["on", "count", "run", "shell", "key", "policy", "limit", "timeout"]

    // MARK: Limits (the README lists them)

    /// The largest configuration file read: 1 MiB. A real one is a few kilobytes.
    package static let maximumBytes = 1 << 20
    /// The most lines of pins in all: one line request holds at most 64 lines (as `watch` allows).
    package static let maximumLines = 64
    /// The shortest hold, click window, throttle, repeat delay, action timeout and group lockout.
    package static let minimumDurationNs: Int64 = 1_000_000
    /// The shortest repeat interval: each repeat is an event that may start an action, so at most 100 a second.
    package static let minimumRepeatIntervalNs: Int64 = 10_000_000
    /// The longest duration anywhere: one hour (`DurationSyntax.maximumNs`).
    package static let maximumDurationNs = DurationSyntax.maximumNs
    /// The highest line offset (the kernel counts a chip's lines in 16 bits).
    package static let maximumOffset = 65_535
    /// The longest line name or chip label, in bytes (the kernel's `GPIO_MAX_NAME_SIZE` is 32 with the NUL).
    package static let maximumKernelNameBytes = 31
    /// The longest button or group name, in characters.
    package static let maximumNameCharacters = 64
    /// The longest argument or shell command, in bytes (the kernel's `MAX_ARG_STRLEN` is 128 KiB with the NUL).
    package static let maximumArgumentBytes = 131_071
    /// The highest click count and `clicks.max`.
    package static let maximumClickCount = 9
    /// The highest `limit` of `policy: parallel`.
    package static let maximumParallelLimit = 64

    /// Parses `text` (the contents of `file`). With `programs`, every `run:` program (and `/bin/sh` for
    /// `shell:`) must be found and executable as `posix_spawnp` would find it; without, they are not looked up.
    /// The kinds of input it may list are `sections`' (the registry of kinds gives them: Inputs'
    /// `load(_:file:programs:)` is this with every kind).
    package static func load(_ text: String, file: String, programs: ProgramLookup? = nil, sections: InputSections) throws(ConfigurationError) -> ServiceConfiguration {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        guard text.utf8.count <= maximumBytes else { throw tooLarge(file) }
        if let nul = text.utf8.firstIndex(of: 0) {
            throw notConfiguration(file, line: 1 + text.utf8[..<nul].count { $0 == 0x0A }, "it is binary data, not text (a NUL byte)", sections: sections)
        }
        return try ConfigurationReader(file: file, text: text, programs: programs, sections: sections).read()
    }

    /// Parses the bytes of `file`: UTF-8, with or without a byte-order mark.
    package static func load(bytes: [UInt8], file: String, programs: ProgramLookup? = nil, sections: InputSections) throws(ConfigurationError) -> ServiceConfiguration {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard bytes.count <= maximumBytes else { throw tooLarge(file) }
        if let nul = bytes.firstIndex(of: 0) {
            throw notConfiguration(file, line: 1 + bytes[..<nul].count { $0 == 0x0A }, "it is binary data, not text (a NUL byte)", sections: sections)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let line = firstInvalidUTF8Line(bytes)
            guard mentionsTopLevelKey(String(decoding: bytes, as: UTF8.self), sections: sections) else {
                throw notConfiguration(file, line: line, "it is not UTF-8 text", sections: sections)
            }
            throw ConfigurationError(file: file, line: line, column: nil, key: "", message: "the file is not UTF-8 text (a configuration is UTF-8 YAML): save it as UTF-8")
        }
        return try load(text, file: file, programs: programs, sections: sections)
    }

    static func tooLarge(_ file: String) -> ConfigurationError {
        ConfigurationError(file: file, line: nil, column: nil, key: "", message: "the file is larger than 1 MiB: not a gpio-debounce configuration (one is a few kilobytes)")
    }

    /// The message for a file that is not recognisably a configuration: by line number only, never its text.
    static func notConfiguration(_ file: String, line: Int?, _ reason: String, sections: InputSections) -> ConfigurationError {
        ConfigurationError(
            file: file, line: line, column: nil, key: "",
            message: "not a gpio-debounce configuration: \(reason); a configuration is YAML with at least one top-level list of inputs, \(sections.listed) (and optionally `defaults:`, `groups:`, `keyboard:`, `mqtt:`, `socket:` and `api:`)")
    }

    private static func firstInvalidUTF8Line(_ bytes: ArraySlice<UInt8>) -> Int {
        var decoder = UTF8(), iterator = bytes.makeIterator(), line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
            case .emptyInput, .error: return line
            }
        }
    }

    /// Whether some line starts with a top-level key of a configuration (`buttons:`, `sensors:`, `mqtt:`
    /// and the others of `topLevelKeys`, possibly quoted or in a flow mapping): then a YAML mistake is shown with an excerpt;
    /// otherwise the file is not a configuration and none of it is shown.
    static func mentionsTopLevelKey(_ text: String, sections: InputSections) -> Bool {
        text.split(separator: "\n").contains { line in
            var rest = Substring(line)
            if rest.hasPrefix("{") { rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" } }
            if let quote = rest.first, quote == "\"" || quote == "'" { rest = rest.dropFirst() }
            guard let key = sections.topLevelKeys.first(where: { rest.hasPrefix($0) }) else { return false }
            rest = rest.dropFirst(key.count)
            if let quote = rest.first, quote == "\"" || quote == "'" { rest = rest.dropFirst() }
            return rest.drop { $0 == " " || $0 == "\t" }.hasPrefix(":")
        }
    }

    /// Where the file may use an alias inside a mapping key, found before the YAML is composed: keys
    /// are hashed to find duplicates, and a key that is (or holds) an alias of a list of aliases of lists
    /// ... expands exponentially (a 1 KB file would hang `check`). Keys are always plain words here, so
    /// nothing valid is lost. On the raw text, a superset of what libyaml reads: an alias is `*` and an
    /// anchor character (letters, digits, `-`, `_`) where a node can start (first on its line, or after
    /// `[ { , : - ?`); a non-scalar key is `*name :`, `] :`, `} :`, or an explicit `? ` key. Only a file
    /// with both is refused; the position is the first such key's.
    static func aliasedKey(_ text: String) -> (line: Int, column: Int)? {
        func isBlank(_ scalar: Unicode.Scalar?) -> Bool { scalar == " " || scalar == "\t" || scalar == "\r" }
        func isAnchorCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
        }
        var hasAlias = false
        var firstKey: (line: Int, column: Int)?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "?") }) else { continue }
            let scalars = Array(line.unicodeScalars)
            /// The index after `start` once blanks are skipped.
            func skipBlanks(_ start: Int) -> Int {
                var end = start
                while end < scalars.count, isBlank(scalars[end]) { end += 1 }
                return end
            }
            var previous: Unicode.Scalar?
            for (position, scalar) in scalars.enumerated() where !isBlank(scalar) {
                defer { previous = scalar }
                let next = position + 1 < scalars.count ? scalars[position + 1] : nil
                var isKey = false
                switch scalar {
                case "*":
                    guard previous.map({ "[{,:-?".unicodeScalars.contains($0) }) ?? true, let next, isAnchorCharacter(next) else { continue }
                    hasAlias = true
                    var end = position + 1
                    while end < scalars.count, isAnchorCharacter(scalars[end]) { end += 1 }
                    end = skipBlanks(end)
                    isKey = end < scalars.count && scalars[end] == ":"
                case "]", "}":
                    let end = skipBlanks(position + 1)
                    isKey = end < scalars.count && scalars[end] == ":"
                case "?":
                    let before = position > 0 ? scalars[position - 1] : nil
                    isKey = (before == nil || isBlank(before) || "[{,".unicodeScalars.contains(before!)) && (next == nil || isBlank(next))
                default:
                    continue
                }
                if isKey, firstKey == nil { firstKey = (index + 1, position + 1) }
            }
            if hasAlias, firstKey != nil { break }
        }
        return hasAlias ? firstKey : nil
    }

    /// `text` for a message: at most `limit` characters (then `…`), control characters escaped as `\u{1B}`.
    package static func quoted(_ text: some StringProtocol, limit: Int = 40) -> String {
        var result = "'"
        for (index, character) in text.enumerated() {
            if index == limit {
                result += "…"
                break
            }
            for scalar in character.unicodeScalars {
                if isControl(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "'"
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    package static func format(_ ns: Int64) -> String { DurationSyntax.format(ns) }
}
