import EventOutput

/// How an input of one line takes a recorded trace of that line (`replay --config`): what its events
/// print after them, whether its state prints at the start, a meter's units, and what a replay's
/// summary counts. Made by the input's kind (`<Kind>Settings+Replay.swift`); inputs of several lines
/// have none.
package struct ReplayTarget: Sendable {
    /// What a replay's summary counts of the input's debounced line.
    package enum Counted: Sendable, Hashable {
        /// A button's presses and releases.
        case presses
        /// Changes to on and to off (before their delays): a door's.
        case changes
        /// A meter's pulses.
        case pulses
    }

    package var counted: Counted
    /// What each event of its line is printed with: `{"button":"lights"}`.
    package var fields: EventFields
    /// Whether its line's state is printed at the start (`{"event":"state",…,"initial":true}`), as
    /// its changes print as states.
    package var printsStateAtStart = false
    /// A meter's pulses per unit and its rate's unit (`W`, `L/min`, `pulses/min`); nil for others.
    package var meter: (perUnit: Double, rateUnit: String)?

    package init(counted: Counted, fields: EventFields, printsStateAtStart: Bool = false, meter: (perUnit: Double, rateUnit: String)? = nil) {
        self.counted = counted
        self.fields = fields
        self.printsStateAtStart = printsStateAtStart
        self.meter = meter
    }
}
