extension Roster {
    /// One input of a run, whatever its kind, with its name, its settings and its lines.
    package struct Input: Sendable {
        /// Its name in the configuration (unique among all inputs).
        package var name: String
        /// What it is: its kind's settings (`InputSettings`).
        package var settings: any InputSettings
        /// Which kind it is.
        package var kind: InputKindID { type(of: settings).kind }
        /// Its identity: its kind and name.
        package var id: InputID { InputID(kind, name) }
        /// Its lines, in the run's line order, as its kind lists them (`InputSettings.watchedLines`):
        /// one for an input of one line; A then B for an encoder, then its reset button's when it has one.
        package var lines: [LineID]
    }
}
