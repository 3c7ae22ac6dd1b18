import DebounceCore

/// A button with no gesture on and in no group (`GestureConfiguration.isPassthrough`, no
/// `LinePlan.group`): a `GestureRecognizer` would report each press and release unchanged, so none is
/// run. What it would still do is here: a press is reported only while released and a release only
/// while pressed (the release of a button held down at the start is not reported: it is a
/// `PipelineOutput.buttonState`), and a release carries how long the press was held.
struct PressFollower: DebouncedFollower {
    var debouncer: Debouncer
    /// Whether the latest reported event was a press.
    var reportedPressed = false
    /// The onset of the latest reported press, in nanoseconds, for the release's `heldNs`.
    var pressOnsetNs: Int64 = 0

    var stageDeadlineNs: Int64? { nil }

    mutating func follow(_ event: ButtonEvent, source: OutputSource, groups: inout [GroupLockout], into outputs: inout [PipelineOutput]) {
        // The debouncer's times are already in order: only the press/release alternation is left.
        let isPress = event.kind == .press
        guard isPress || event.kind == .release else { return }
        guard isPress != reportedPressed else {
            // Only a button held since the start is let go with no press reported.
            if !isPress { outputs.append(.buttonState(source, isPressed: false, atNs: event.timeNs)) }
            return
        }
        reportedPressed = isPress
        var reported = event
        if isPress {
            pressOnsetNs = event.onsetNs
        } else {
            reported.heldNs = event.onsetNs.durationNs(since: pressOnsetNs)
        }
        outputs.append(.event(source, reported))
    }

    func advanceStage(toNs timeNs: Int64, source: OutputSource, into outputs: inout [PipelineOutput]) {}

    func finishStage(source: OutputSource, into outputs: inout [PipelineOutput]) {}
}
