import SystemPackage

/// One line of a state file: an input's name and the value it keeps.
public struct StateFileEntry: Sendable, Hashable {
    /// The input's name in the configuration (`StateFileFormat.isValidName`).
    public var name: String
    /// Its value: a meter's total in pulses, a knob's position in detents (`StateFile.minimumValue`...Int64.max).
    public var value: Int64

    public init(name: String, value: Int64) {
        self.name = name
        self.value = value
    }
}

/// The format of every state file (`StateFile`: `<state-dir>/counters`, `<state-dir>/positions`):
/// human-readable text, one input a line.
///
///     # gpio-debounce counter totals, in pulses. Written by `gpio-debounce run`; edit only while it is stopped.
///     format 1
///     energy 1234567
///     water 42
///
/// Blank lines and lines whose first non-blank character is `#` are comments. The first other line is
/// `format 1`; every later one is `NAME VALUE`, separated by spaces or tabs, VALUE a whole number
/// `StateFile.minimumValue`...Int64.max in decimal digits, each name once. A `\r` before a line's
/// `\n` is allowed (a file edited on Windows). Pure: `parse` and `format` do no I/O (`StateStore`
/// reads and writes the files).
///
/// Public, not package, for one reason: the parser's libFuzzer targets (Fuzz/, a package of its own)
/// can only reach public declarations of the `_KeptState` product; the rest of the module stays `package`.
public enum StateFileFormat {
    /// The line that says what the file is, and in which version of the format.
    public static let formatLine = "format 1"
    /// A larger file is refused without being read further: 1 MiB (some 20 000 entries).
    public static let maximumBytes = 1 << 20
    /// The longest name, in characters.
    public static let maximumNameLength = 64

    /// Whether `name` can be an input's name in a state file: 1...64 characters, no whitespace and no
    /// control characters, and not starting with `#` (which would make its line a comment).
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= maximumNameLength, !name.hasPrefix("#") else { return false }
        return !name.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }

    /// The entries of the state file `kind` in `bytes` (the whole file), in the file's order. Every
    /// line after `format 1` is `NAME VALUE`, the value one `kind` allows. `path` is only for the
    /// errors' messages. A missing file is not this function's business (`StateStore` reads it as no
    /// entries); an empty one is `KeptStateError.empty`.
    public static func parse(_ bytes: [UInt8], path: String, kind: StateFile) throws(KeptStateError) -> [StateFileEntry] {
        guard !bytes.isEmpty else { throw .empty(path: path, kind: kind) }
        guard bytes.count <= maximumBytes else { throw .tooLarge(path: path, bytes: bytes.count) }
        var entries: [StateFileEntry] = []
        var firstLines: [String: Int] = [:]
        var sawFormat = false
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[start..<end]
            start = end + 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                if !sawFormat { throw .foreign(path: path, line: lineNumber, found: nil, kind: kind) }
                throw .malformedLine(path: path, line: lineNumber, reason: "it is not UTF-8 text", kind: kind)
            }
            let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            guard sawFormat else {
                if fields.count == 2, fields[0] == "format" {
                    guard fields[1] == "1" else { throw .unsupportedFormat(path: path, line: lineNumber, version: String(fields[1])) }
                    sawFormat = true
                    continue
                }
                throw .foreign(path: path, line: lineNumber, found: text, kind: kind)
            }
            guard fields.count == 2 else {
                throw .malformedLine(
                    path: path, line: lineNumber,
                    reason: fields.count == 1 ? "'\(fields[0])' has no \(kind.valueNoun)" : "it has \(fields.count) fields, not 2", kind: kind)
            }
            let name = String(fields[0])
            guard isValidName(name) else { throw .badName(path: path, line: lineNumber, name: name) }
            guard let value = kind.value(fields[1]) else {
                throw .badTotal(path: path, line: lineNumber, name: name, text: String(fields[1]), kind: kind)
            }
            if let first = firstLines[name] { throw .duplicateName(path: path, line: lineNumber, name: name, firstLine: first, kind: kind) }
            firstLines[name] = lineNumber
            entries.append(StateFileEntry(name: name, value: value))
        }
        guard sawFormat else { throw .foreign(path: path, line: 0, found: nil, kind: kind) }
        return entries
    }

    /// The text of the state file `kind`: its header, `format 1`, `entries` (the run's inputs), then
    /// `kept` (names the run does not keep) under `StateFile.keptHeader`, each line ending in `\n`.
    /// Names must be valid (`isValidName`) and values at least `kind.minimumValue` for `parse` to
    /// read it back.
    public static func format(_ entries: [StateFileEntry], kept: [StateFileEntry] = [], kind: StateFile) -> String {
        var text = kind.header + "\n" + formatLine + "\n"
        for entry in entries { text += "\(entry.name) \(entry.value)\n" }
        if !kept.isEmpty {
            text += StateFile.keptHeader + "\n"
            for entry in kept { text += "\(entry.name) \(entry.value)\n" }
        }
        return text
    }

    /// `text` as a whole number 0...Int64.max written in ASCII digits only (no sign, no spaces), or nil.
    static func wholeNumber(_ text: Substring) -> Int64? {
        var value: Int64 = 0
        guard !text.isEmpty else { return nil }
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }
}

/// Why the inputs' kept values could not be read, kept or locked. Every description names the file (and
/// line), says what is wrong and what to do, and, where it matters, that the file was left as it is.
public enum KeptStateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not a state file of `kind`: its first line that is not a comment (`line`, whose
    /// text is `found`; nil: not UTF-8) is not `format 1`, or it has no such line (`line` 0).
    case foreign(path: String, line: Int, found: String?, kind: StateFile)
    /// `format N` with another N: written by another version of gpio-debounce.
    case unsupportedFormat(path: String, line: Int, version: String)
    /// A zero-length file: a write was cut off (a power cut before the data reached the disk).
    case empty(path: String, kind: StateFile)
    /// A line that is not `NAME VALUE`.
    case malformedLine(path: String, line: Int, reason: String, kind: StateFile)
    /// A name a state file cannot hold (`StateFileFormat.isValidName`).
    case badName(path: String, line: Int, name: String)
    /// A value that is not a whole number `kind.minimumValue`...Int64.max.
    case badTotal(path: String, line: Int, name: String, text: String, kind: StateFile)
    /// A name on two lines.
    case duplicateName(path: String, line: Int, name: String, firstLine: Int, kind: StateFile)
    /// Larger than `StateFileFormat.maximumBytes`; `bytes` is how much was read (at most one more).
    case tooLarge(path: String, bytes: Int)
    /// The file exists but cannot be read (`open`, `read`, or it is a directory: `EISDIR`).
    case unreadable(path: String, errno: Errno)
    /// The state directory (or one of its parents) cannot be created, or is not a directory.
    case cannotCreateDirectory(path: String, errno: Errno)
    /// The lock file cannot be opened or locked (other than another run holding it).
    case cannotLock(path: String, errno: Errno)
    /// Another process holds the state directory's lock: a second run on the same directory.
    case locked(directory: String)
    /// No state directory could be chosen: not root, and neither `STATE_DIRECTORY`, `XDG_STATE_HOME`
    /// nor `HOME` is set.
    case noStateDirectory
    /// An input of the run whose name its file cannot hold (the configuration's names are checked
    /// elsewhere; this is the store's own check).
    case unsuitableName(name: String, kind: StateFile)
    /// Two inputs of the run with one name in one file.
    case duplicateEntry(name: String, kind: StateFile)

    private static let leftAsItIs = "; it is left as it is"

    public var description: String {
        switch self {
        case .foreign(let path, let line, let found, let kind):
            let what = found.map { "its first line that is not a comment, line \(line), is `\(Self.clipped($0))`, not `\(StateFileFormat.formatLine)`" }
                ?? (line == 0 ? "it has no `\(StateFileFormat.formatLine)` line" : "line \(line) is not UTF-8 text, and no `\(StateFileFormat.formatLine)` line comes before it")
            return "'\(path)' is not a gpio-debounce \(kind.fileNoun) (\(what)): move it away, or give run another --state-dir"
                + Self.leftAsItIs
        case .unsupportedFormat(let path, let line, let version):
            return "\(path):\(line): `format \(Self.clipped(version))` is not a format this gpio-debounce reads (only `\(StateFileFormat.formatLine)`): "
                + "it was written by another version; run that version, or move the file away" + Self.leftAsItIs
        case .empty(let path, let kind):
            return "'\(path)' is empty: a write of it was cut off (a power cut before the file system had saved it), and \(kind.contents) "
                + "are lost. Put them back by hand while gpio-debounce is stopped (a line `\(StateFileFormat.formatLine)`, then a line "
                + "`NAME \(kind.valueNoun.uppercased())` per \(kind.entryNoun)\(kind.recovery.map { ", " + $0 } ?? "")), "
                + "or delete the file to start every \(kind.entryNoun) at \(kind.freshStart)" + Self.leftAsItIs
        case .malformedLine(let path, let line, let reason, let kind):
            return "\(path):\(line): \(reason); a line is `NAME \(kind.valueNoun.uppercased())` (\(kind.lineMeaning)): correct it while "
                + "gpio-debounce is stopped, or move the file away" + Self.leftAsItIs
        case .badName(let path, let line, let name):
            return "\(path):\(line): '\(Self.clipped(name))' is not a name a state file can hold (1 to \(StateFileFormat.maximumNameLength) characters, "
                + "no spaces or control characters, not starting with #): correct it while gpio-debounce is stopped" + Self.leftAsItIs
        case .badTotal(let path, let line, let name, let text, let kind):
            return "\(path):\(line): the \(kind.valueNoun) of '\(name)', '\(Self.clipped(text))', is not a whole number from \(kind.minimumValue) to \(Int64.max): "
                + "correct it while gpio-debounce is stopped" + Self.leftAsItIs
        case .duplicateName(let path, let line, let name, let firstLine, let kind):
            return "\(path):\(line): '\(name)' is listed twice (also on line \(firstLine)): keep the line with the right \(kind.valueNoun), "
                + "while gpio-debounce is stopped" + Self.leftAsItIs
        case .tooLarge(let path, let bytes):
            return "'\(path)' is larger than \(StateFileFormat.maximumBytes / 1024) KiB (\(bytes > StateFileFormat.maximumBytes ? "over " : "")"
                + "\(StateFileFormat.maximumBytes) bytes): it is not a gpio-debounce state file; move it away, or give run another --state-dir"
                + Self.leftAsItIs
        case .unreadable(let path, let errno):
            return "cannot read the state file '\(path)': \(Self.reason(errno, file: true))"
        case .cannotCreateDirectory(let path, let errno):
            return "cannot create the state directory '\(path)': \(Self.reason(errno, file: false))"
        case .cannotLock(let path, let errno):
            return "cannot lock '\(path)': \(Self.reason(errno, file: true))"
        case .locked(let directory):
            return "another gpio-debounce run keeps its state in '\(directory)': stop it, or give this one another --state-dir"
        case .noStateDirectory:
            return "no state directory: neither STATE_DIRECTORY, XDG_STATE_HOME nor HOME is set; give run --state-dir"
        case .unsuitableName(let name, let kind):
            return "the \(kind.entryNoun) '\(Self.clipped(name))' cannot be kept in the state file: \(kind.anEntry)'s name is 1 to "
                + "\(StateFileFormat.maximumNameLength) characters, without spaces or control characters, not starting with #; rename it in the configuration"
        case .duplicateEntry(let name, let kind):
            return "two \(kind.entriesNoun) are called '\(Self.clipped(name))': give each its own name in the configuration"
        }
    }

    /// At most 80 characters of something the file said, control characters shown as `?`.
    private static func clipped(_ text: String) -> String {
        let shown = String(String.UnicodeScalarView(text.unicodeScalars.prefix(80).map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return text.unicodeScalars.count > 80 ? shown + "…" : shown
    }

    private static func reason(_ errno: Errno, file: Bool) -> String {
        switch errno {
        case .permissionDenied, .notPermitted:
            "permission denied: the state directory must be readable and writable by the user running gpio-debounce (or give run another --state-dir)"
        case .isDirectory:
            "it is a directory: move it away, or give run another --state-dir"
        case .notDirectory:
            "a part of the path is not a directory: give run another --state-dir"
        case .readOnlyFileSystem:
            "the file system is read-only: give run a --state-dir on a writable one"
        case .noSpace:
            "no space left on the device: free some, or give run another --state-dir"
        default:
            "\(errno.description) (errno \(errno.rawValue))" + (file ? "" : ": give run another --state-dir")
        }
    }
}
