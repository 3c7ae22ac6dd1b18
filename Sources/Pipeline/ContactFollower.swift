import DebounceCore

/// A contact (door, window, PIR; `LineRole.contact`): its debouncer's presses and releases are on and
/// off, reported by its `ContactFilter` once they lasted their delays (`PipelineOutput.contact`).
struct ContactFollower: DebouncedFollower {
    var debouncer: Debouncer
    var filter: ContactFilter

    var stageDeadlineNs: Int64? { filter.nextDeadlineNs }

    mutating func follow(_ event: ButtonEvent, source: OutputSource, groups: inout [GroupLockout], into outputs: inout [PipelineOutput]) {
        let changes = filter.receive(event)
        if let first = changes.first { outputs.append(.contact(source, first)) }
        if let second = changes.second { outputs.append(.contact(source, second)) }
    }

    mutating func advanceStage(toNs timeNs: Int64, source: OutputSource, into outputs: inout [PipelineOutput]) {
        // A change that began before the filter's pending one was due, still undecided: the pending
        // one may not have lasted its delay, so it waits for the debouncer's decision.
        if let due = filter.nextDeadlineNs, due <= timeNs, let onset = debouncer.pendingOnsetNs, onset <= due,
            let debouncerDueNs = debouncer.nextDeadlineNs
        {
            filter.postpone(toNs: debouncerDueNs)
        }
        if let change = filter.advance(toNs: timeNs) { outputs.append(.contact(source, change)) }
    }

    mutating func finishStage(source: OutputSource, into outputs: inout [PipelineOutput]) {
        if let change = filter.finish() { outputs.append(.contact(source, change)) }
    }
}
