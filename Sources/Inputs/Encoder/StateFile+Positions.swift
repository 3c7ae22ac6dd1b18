import KeptState

extension StateFile {
    /// `<state-dir>/positions`: each encoder's position with `restore: true`, in detents
    /// (-Int64.max...Int64.max); an encoder the file does not list starts from its own initial position.
    package static let positions = StateFile(
        fileName: "positions",
        header: "# gpio-debounce encoder positions (restore: true), in detents. Written by `gpio-debounce run`; edit only while it is stopped.",
        fileNoun: "encoder position file", entryNoun: "encoder", anEntry: "an encoder", entriesNoun: "encoders",
        valueNoun: "position", lineMeaning: "an encoder's name and its position", contents: "the encoders' positions",
        recovery: nil, freshStart: "0 (clamped into its min/max)",
        minimumValue: -Int64.max, valueWhenMissing: nil, keptIn: "encoders: positions kept in",
        lostChanges: { _ in "the positions of " },
        simulationNote: { "encoders: a simulation keeps its positions in \($0), removed at the stop (--state-dir DIR keeps them)" })
}
