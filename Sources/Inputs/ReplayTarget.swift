import EventOutput
import InputModel

/// How an input of one line takes a recorded trace of that line (`replay --config`): what its events
/// print after them, how its other outputs print (its kind's printer, its line the trace's line 0),
/// and what a replay's summary counts. Made by the input's kind (`<Kind>Settings+Replay.swift`); inputs of several lines
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
    /// How its outputs other than its line's debounced events print (a contact's states, a meter's
    /// pulses), its line being run line 0; nil for an input with none.
    package var printer: (any InputPrinter)?

    package init(counted: Counted, fields: EventFields, printer: (any InputPrinter)? = nil) {
        self.counted = counted
        self.fields = fields
        self.printer = printer
    }
}
