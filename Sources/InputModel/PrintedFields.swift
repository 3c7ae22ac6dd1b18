import EventOutput

/// What `run`'s printer writes after the events it writes itself (`InputPrinter` writes the rest): the
/// kind's own words in the event lines (`,"<kind>":"lights","chip":"gpiochip0","line":17`).
package struct PrintedFields: Sendable {
    /// Each of its run lines' fields, after that line's events.
    package var lines: [(line: Int, fields: EventFields)]
    /// Its own fields, after the codes entered on it (`Sink.consume(code:of:nowNs:)`).
    package var input: EventFields?

    package init(lines: [(line: Int, fields: EventFields)] = [], input: EventFields? = nil) {
        self.lines = lines
        self.input = input
    }
}
