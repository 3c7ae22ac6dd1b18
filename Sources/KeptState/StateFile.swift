/// One file of the state directory, as the kind whose inputs keep their values in it describes it
/// (a meter's `counters`, a knob's `positions`: each declared in its kind's folder of `Inputs`).
/// Every file has one format (`StateFileFormat`: `format 1`, then `NAME VALUE` lines) and the
/// directory's one lock; files differ in their names, their header, the values they allow and the
/// words their messages use. Two descriptions are the same file when their names are.
public struct StateFile: Sendable, Hashable, CustomStringConvertible {
    /// The file's name in the state directory: `counters`.
    public let fileName: String
    /// The comment the file starts with.
    public let header: String
    /// What messages call the file: `counter state file`.
    public let fileNoun: String
    /// What one entry is: `counter`.
    public let entryNoun: String
    /// One entry with its article: `a counter`.
    public let anEntry: String
    /// Entries, plural: `counters`.
    public let entriesNoun: String
    /// What one entry's value is: `total`.
    public let valueNoun: String
    /// What a line holds: `a counter's name and its total in pulses`.
    public let lineMeaning: String
    /// What the file holds: `the counters' totals`.
    public let contents: String
    /// Where values lost with the file can be read again, or nil: `the totals read off the meters or a backup`.
    public let recovery: String?
    /// What every entry starts at without the file: `0`, `0 (clamped into its min/max)`.
    public let freshStart: String
    /// The smallest value a line may have: 0 for a total, -Int64.max for a position.
    public let minimumValue: Int64
    /// The value of an entry the file does not list: 0 for a total (a meter starts counting), nil for
    /// a position (the input starts from its own initial position).
    public let valueWhenMissing: Int64?
    /// The start of the log's line at the start, before the path: `counters: kept in`.
    public let keptIn: String
    /// What a failed write loses, before the names it lost them of, given the sum of the unsaved
    /// changes: `3 pulses of `, `the positions of `.
    public let lostChanges: @Sendable (Int64) -> String
    /// The log's note of a simulation that keeps this file in its own directory (the argument).
    public let simulationNote: @Sendable (String) -> String

    public init(
        fileName: String, header: String, fileNoun: String, entryNoun: String, anEntry: String, entriesNoun: String,
        valueNoun: String, lineMeaning: String, contents: String, recovery: String?, freshStart: String,
        minimumValue: Int64, valueWhenMissing: Int64?, keptIn: String,
        lostChanges: @escaping @Sendable (Int64) -> String, simulationNote: @escaping @Sendable (String) -> String
    ) {
        self.fileName = fileName
        self.header = header
        self.fileNoun = fileNoun
        self.entryNoun = entryNoun
        self.anEntry = anEntry
        self.entriesNoun = entriesNoun
        self.valueNoun = valueNoun
        self.lineMeaning = lineMeaning
        self.contents = contents
        self.recovery = recovery
        self.freshStart = freshStart
        self.minimumValue = minimumValue
        self.valueWhenMissing = valueWhenMissing
        self.keptIn = keptIn
        self.lostChanges = lostChanges
        self.simulationNote = simulationNote
    }

    /// The comment before the entries that the run's configuration no longer has (kept, not dropped).
    public static let keptHeader = "# not in the configuration of the run that wrote this file, kept as they were:"

    public static func == (left: StateFile, right: StateFile) -> Bool { left.fileName == right.fileName }

    public func hash(into hasher: inout Hasher) { hasher.combine(fileName) }

    public var description: String { fileName }

    /// The log's line at the start, for the run's entries in this file at `path` with their values:
    /// `counters: kept in PATH (energy 41000)`; an entry with no value yet shows `none yet`.
    package func keptLine(path: String, entries: [(name: String, value: Int64?)]) -> String {
        let listed = entries.map { "\($0.name) \($0.value.map { String($0) } ?? "none yet")" }.joined(separator: ", ")
        return "\(keptIn) \(path) (\(listed))"
    }

    /// `text` as a whole number `minimumValue`...Int64.max, in ASCII digits only (a leading `-` when
    /// `minimumValue` is negative; no `+`, no spaces), or nil.
    func value(_ text: Substring) -> Int64? {
        let value = minimumValue < 0 && text.first == "-"
            ? StateFileFormat.wholeNumber(text.dropFirst()).map { -$0 } : StateFileFormat.wholeNumber(text)
        return value.flatMap { $0 >= minimumValue ? $0 : nil }
    }
}
