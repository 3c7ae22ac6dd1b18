import EventOutput

/// How an input of one line takes a recorded trace of that line (`replay --config`): what its events
/// print after them, whether its line is a contact, a meter's units, and what a replay's summary
/// counts. Made by the input's kind (`<Kind>Settings+Replay.swift`); inputs of several lines (an
/// encoder, a keypad) have none.
package struct ReplayTarget: Sendable {
    /// What a replay's summary counts of the input's debounced line.
    package enum Counted: Sendable, Hashable {
        /// A button's presses and releases.
        case presses
        /// A contact's changes to on and to off (before its delays).
        case changes
        /// A meter's pulses.
        case pulses
    }

    package var counted: Counted
    /// What each event of its line is printed with: `{"button":"lights"}`.
    package var fields: EventFields
    /// Whether its line is a contact (its changes print as states).
    package var isContact = false
    /// A meter's pulses per unit and its rate's unit (`W`, `L/min`, `pulses/min`); nil for others.
    package var meter: (perUnit: Double, rateUnit: String)?

    package init(counted: Counted, fields: EventFields, isContact: Bool = false, meter: (perUnit: Double, rateUnit: String)? = nil) {
        self.counted = counted
        self.fields = fields
        self.isContact = isContact
        self.meter = meter
    }
}
