import DebounceCore
import KeptState

extension StateFile {
    /// `<state-dir>/counters`: each meter's total, in pulses (0...Int64.max); a counter the file does
    /// not list starts from 0.
    package static let counters = StateFile(
        fileName: "counters",
        header: "# gpio-debounce counter totals, in pulses. Written by `gpio-debounce run`; edit only while it is stopped.",
        fileNoun: "counter state file", entryNoun: "counter", anEntry: "a counter", entriesNoun: "counters",
        valueNoun: "total", lineMeaning: "a counter's name and its total in pulses", contents: "the counters' totals",
        recovery: "the totals read off the meters or a backup", freshStart: "0",
        minimumValue: 0, valueWhenMissing: 0, keptIn: "counters: kept in",
        lostChanges: { counted(Int(clamping: $0), "pulse") + " of " },
        simulationNote: { "counters: a simulation counts from 0 in \($0), removed at the stop (--state-dir DIR keeps its totals)" })
}
