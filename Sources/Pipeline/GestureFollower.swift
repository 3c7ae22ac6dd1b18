import DebounceCore

/// A button with gestures (hold, repeat, clicks, throttle) or a group: its debouncer's events go
/// through its `GestureRecognizer`, and through its group's `GroupLockout` if it has one.
///
/// A button held when the run starts has had no press: its release, which the recognizer ignores (a
/// release while released), is a `PipelineOutput.buttonState`, so that what follows the button's
/// state (MQTT's state topic) ends released.
struct GestureFollower: DebouncedFollower {
    var debouncer: Debouncer
    var recognizer: GestureRecognizer
    /// Index of the line's lockout in the pipeline's groups, if it belongs to one.
    let group: Int?
    /// Whether the button has been held since the start, with no press reported.
    var heldSinceStart: Bool

    var stageDeadlineNs: Int64? { recognizer.nextDeadlineNs }

    mutating func follow(_ event: ButtonEvent, source: OutputSource, groups: inout [GroupLockout], into outputs: inout [PipelineOutput]) {
        if heldSinceStart {
            heldSinceStart = false
            if event.kind == .release {
                outputs.append(.buttonState(source, isPressed: false, atNs: event.timeNs))
                return
            }
        }
        let gestures: GestureOutput
        if let group {
            gestures = recognizer.receive(event, group: &groups[group])
        } else {
            gestures = recognizer.receive(event)
        }
        for gesture in gestures { outputs.append(.event(source, gesture)) }
    }

    mutating func advanceStage(toNs timeNs: Int64, source: OutputSource, into outputs: inout [PipelineOutput]) {
        for gesture in recognizer.advance(toNs: timeNs) { outputs.append(.event(source, gesture)) }
    }

    mutating func finishStage(source: OutputSource, into outputs: inout [PipelineOutput]) {
        for gesture in recognizer.finish() { outputs.append(.event(source, gesture)) }
    }
}
