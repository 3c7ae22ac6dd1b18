/// A change a user asks of a running pipeline, from outside its edges (the control socket's `reset`,
/// through a sink: `Sink.takeCommands()`), applied by `ButtonPipeline.apply(_:atNs:into:)`.
public enum PipelineCommand: Sendable, Hashable {
    /// Sets input `input`'s value (its index in the run's inputs, `OutputSource.input`): a total, in
    /// pulses (at least 0), or a position (clamped into its range), as its kind keeps it.
    case reset(input: Int, to: Int64)
}
