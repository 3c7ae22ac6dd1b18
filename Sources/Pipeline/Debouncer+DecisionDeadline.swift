import DebounceCore

extension Debouncer {
    /// When this line's debouncer next owes a decision, in nanoseconds of the line's clock: while a
    /// loss is suspected, its next deadline of any kind (the one that settles it, after which its
    /// level is read); otherwise only one that can report an event (`nextEventDeadlineNs`).
    @inline(__always)
    func decisionDeadlineNs(lossSuspected: Bool) -> Int64? {
        lossSuspected ? nextDeadlineNs : nextEventDeadlineNs
    }
}
