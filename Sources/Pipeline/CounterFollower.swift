import DebounceCore

/// A meter's pulse output (`LineRole.counter`): each of its debouncer's presses is a pulse counted
/// by its `PulseCounter` (`PipelineOutput.count`).
struct CounterFollower: DebouncedFollower {
    var debouncer: Debouncer
    var counter: PulseCounter

    var stageDeadlineNs: Int64? { nil }

    mutating func follow(_ event: ButtonEvent, line: Int, groups: inout [GroupLockout], into outputs: inout [PipelineOutput]) {
        if let pulse = counter.receive(event) { outputs.append(.count(line: line, pulse)) }
    }

    func advanceStage(toNs timeNs: Int64, line: Int, into outputs: inout [PipelineOutput]) {}

    func finishStage(line: Int, into outputs: inout [PipelineOutput]) {}
}
