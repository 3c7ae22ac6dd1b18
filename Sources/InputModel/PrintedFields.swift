import EventOutput

/// What `run`'s printer writes after an input's events, and what it must know to write them: the
/// kind's own words in the event lines (`,"<kind>":"lights","chip":"gpiochip0","line":17`).
package struct PrintedFields: Sendable {
    /// Each of its run lines' fields, after that line's events.
    package var lines: [(line: Int, fields: EventFields)]
    /// Its own fields, after the events that are the input's rather than a line's (a detent, a reset,
    /// a code).
    package var input: EventFields?
    /// Its lines that are contacts: their changes and their state at the start are printed as a contact's.
    package var contactLines: [Int]
    /// Its lines that are meters: each with its pulses per unit (a count's `value` is its total over
    /// this) and its rate's unit.
    package var meters: [(line: Int, perUnit: Double, rateUnit: String)]

    package init(
        lines: [(line: Int, fields: EventFields)] = [], input: EventFields? = nil, contactLines: [Int] = [],
        meters: [(line: Int, perUnit: Double, rateUnit: String)] = []
    ) {
        self.lines = lines
        self.input = input
        self.contactLines = contactLines
        self.meters = meters
    }
}
