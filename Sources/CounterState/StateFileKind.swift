import DebounceCore

/// Which of the state directory's files a parse or an error is about: the counters' totals
/// (`<state-dir>/counters`, `CounterStateFile`) or the encoders' positions (`<state-dir>/positions`,
/// `EncoderPositionFile`). Both have one format (`format 1`, then `NAME VALUE` lines) and one lock;
/// they differ in their names, their header and the values they allow.
public enum StateFileKind: Sendable, Hashable, CaseIterable {
    /// `<state-dir>/counters`: pulse totals, 0...Int64.max.
    case counters
    /// `<state-dir>/positions`: encoder positions, -Int64.max...Int64.max.
    case positions

    /// The file's name in the state directory.
    public var fileName: String {
        switch self {
        case .counters: "counters"
        case .positions: "positions"
        }
    }

    /// The comment the file starts with.
    public var header: String {
        switch self {
        case .counters: "# gpio-debounce counter totals, in pulses. Written by `gpio-debounce run`; edit only while it is stopped."
        case .positions: "# gpio-debounce encoder positions (restore: true), in detents. Written by `gpio-debounce run`; edit only while it is stopped."
        }
    }

    /// The comment before the entries that the run's configuration no longer has (kept, not dropped).
    public var keptHeader: String { "# not in the configuration of the run that wrote this file, kept as they were:" }

    /// What messages call the file: `counter state file`, `encoder position file`.
    var fileNoun: String {
        switch self {
        case .counters: "counter state file"
        case .positions: "encoder position file"
        }
    }

    /// What one entry is: `counter`, `encoder`.
    var entryNoun: String {
        switch self {
        case .counters: "counter"
        case .positions: "encoder"
        }
    }

    /// What one entry's value is: `total`, `position`.
    var valueNoun: String {
        switch self {
        case .counters: "total"
        case .positions: "position"
        }
    }

    /// The value of an entry the file does not list: 0 for a total (a meter starts counting), none for
    /// a position (the encoder starts from its own initial position).
    public var valueWhenMissing: Int64? {
        switch self {
        case .counters: 0
        case .positions: nil
        }
    }

    /// What the file holds, as messages say it: `the counters' totals`, `the encoders' positions`.
    var contents: String {
        switch self {
        case .counters: "the counters' totals"
        case .positions: "the encoders' positions"
        }
    }

    /// What a failed write loses, before the names it lost them of, given the sum of the unsaved
    /// changes: `3 pulses of `, `the positions of `.
    func lostChanges(_ sum: Int64) -> String {
        switch self {
        case .counters: counted(Int(clamping: sum), "pulse") + " of "
        case .positions: "the positions of "
        }
    }

    /// The log's line at the start, for the run's entries in this file at `path` with their values:
    /// `counters: kept in PATH (energy 41000)`, `encoders: positions kept in PATH (volume none yet)`.
    package func keptLine(path: String, entries: [(name: String, value: Int64?)]) -> String {
        let listed = entries.map { "\($0.name) \($0.value.map { String($0) } ?? "none yet")" }.joined(separator: ", ")
        return switch self {
        case .counters: "counters: kept in \(path) (\(listed))"
        case .positions: "encoders: positions kept in \(path) (\(listed))"
        }
    }

    /// The log's note of a simulation that keeps this file in its own directory `directory`.
    package func simulationNote(directory: String) -> String {
        switch self {
        case .counters: "counters: a simulation counts from 0 in \(directory), removed at the stop (--state-dir DIR keeps its totals)"
        case .positions: "encoders: a simulation keeps its positions in \(directory), removed at the stop (--state-dir DIR keeps them)"
        }
    }

    /// The smallest value a line may have: 0 for a total, -Int64.max for a position.
    public var minimumValue: Int64 {
        switch self {
        case .counters: 0
        case .positions: -Int64.max
        }
    }

    /// `text` as a whole number this file allows, in ASCII digits only (a position may have a leading
    /// `-`; no `+`, no spaces), or nil.
    func value(_ text: Substring) -> Int64? {
        if self == .positions, text.first == "-" { return CounterStateFile.wholeNumber(text.dropFirst()).map { -$0 } }
        return CounterStateFile.wholeNumber(text)
    }
}
