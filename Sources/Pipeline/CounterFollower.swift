import DebounceCore

/// A meter's pulse output (`LineRole.counter`): each of its debouncer's presses is a pulse counted
/// by its `PulseCounter` (`PipelineOutput.count`), whose rate falls at the counter's deadline with no
/// pulse (`PipelineOutput.rate`).
struct CounterFollower: DebouncedFollower {
    var debouncer: Debouncer
    var counter: PulseCounter

    var stageDeadlineNs: Int64? { counter.nextDeadlineNs }

    mutating func follow(_ event: ButtonEvent, source: OutputSource, groups: inout [GroupLockout], into outputs: inout [PipelineOutput]) {
        if let pulse = counter.receive(event) { outputs.append(.count(source, pulse)) }
    }

    mutating func advanceStage(toNs timeNs: Int64, source: OutputSource, into outputs: inout [PipelineOutput]) {
        // A pulse that began before the fall was due, still undecided: if it is one, the rate did not
        // fall, so the fall waits for the debouncer's decision (a glitch rejected, it falls then).
        if let due = counter.nextDeadlineNs, due <= timeNs, !debouncer.isPressed, let onset = debouncer.pendingOnsetNs, onset <= due,
            let debouncerDueNs = debouncer.nextDeadlineNs
        {
            counter.postpone(toNs: debouncerDueNs)
        }
        if let fall = counter.advance(toNs: timeNs) { outputs.append(.rate(source, fall)) }
    }

    /// A recorded input's end decides nothing: the rate's falls belong to a time the input never reached.
    func finishStage(source: OutputSource, into outputs: inout [PipelineOutput]) {}
}
