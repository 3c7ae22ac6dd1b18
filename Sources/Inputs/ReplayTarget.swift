import EventOutput

/// How an input of one line takes a recorded trace of that line (`replay --config`): what its events
/// print after them, whether its changes print as states, a meter's units, and what a replay's
/// summary counts. Made by the input's kind (`<Kind>Settings+Replay.swift`); inputs of several lines
/// have none.
package struct ReplayTarget: Sendable {
    /// What a replay's summary counts of the input's debounced line.
    package enum Counted: Sendable, Hashable {
        /// A button's presses and releases.
        case presses
        /// Changes to on and to off (before their delays): a sensor's.
        case changes
        /// A meter's pulses.
        case pulses
    }

    package var counted: Counted
    /// What each event of its line is printed with: `{"button":"lights"}`.
    package var fields: EventFields
    /// Whether its line's changes print as states (`{"event":"state",…}`, with `fields`), its state
    /// at the start too (`"initial":true`).
    package var printsStates = false
    /// A meter's pulses per unit and its rate's unit (`W`, `L/min`, `pulses/min`); nil for others.
    package var meter: (perUnit: Double, rateUnit: String)?

    package init(counted: Counted, fields: EventFields, printsStates: Bool = false, meter: (perUnit: Double, rateUnit: String)? = nil) {
        self.counted = counted
        self.fields = fields
        self.printsStates = printsStates
        self.meter = meter
    }
}
