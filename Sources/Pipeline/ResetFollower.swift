import DebounceCore

/// An encoder's reset button (`LineRole.encoderReset`): each press its debouncer decides sets the
/// encoder's position to `position`. The follower only notes the press (`pendingPressNs`); the
/// pipeline, which owns the encoders' decoders, sets the position and reports it
/// (`PipelineOutput.positionReset`) at once. Releases, and the release of a button held since the
/// start, report nothing.
struct ResetFollower: DebouncedFollower {
    var debouncer: Debouncer
    /// The encoder it resets: its index among the pipeline's encoders.
    let encoder: Int
    /// The position a press sets (clamped into the encoder's range by its decoder).
    let position: Int
    /// The time of a press not yet applied to the decoder, in nanoseconds (the debouncer's decision).
    var pendingPressNs: Int64?

    var stageDeadlineNs: Int64? { nil }

    mutating func follow(_ event: ButtonEvent, source: OutputSource, groups: inout [GroupLockout], into outputs: inout [PipelineOutput]) {
        if event.kind == .press { pendingPressNs = event.timeNs }
    }

    func advanceStage(toNs timeNs: Int64, source: OutputSource, into outputs: inout [PipelineOutput]) {}

    func finishStage(source: OutputSource, into outputs: inout [PipelineOutput]) {}
}

extension ButtonPipeline {
    /// Applies reset follower `index`'s pending press, if any: its encoder's decoder takes the
    /// position, and `PipelineOutput.positionReset` goes out with the position it holds then.
    mutating func applyReset(_ index: Int, into outputs: inout [PipelineOutput]) {
        guard let timeNs = resets[index].pendingPressNs else { return }
        resets[index].pendingPressNs = nil
        let encoder = resets[index].encoder
        encoders[encoder].decoder.reset(to: resets[index].position)
        outputs.append(.positionReset(encoders[encoder].source, position: encoders[encoder].decoder.position, atNs: timeNs))
    }
}
