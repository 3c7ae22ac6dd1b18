/// Where a keypad's entered code is among a wakeup's outputs (`PipelineOutput.code`): its index in
/// the pipeline's `enteredCodes`, its length in keys and when it was completed. Plain values, so
/// that `PipelineOutput` holds no reference and every output is copied and dropped without
/// reference counting; the code itself reaches only the sinks that ask for it
/// (`Sink.consume(code:of:nowNs:)`).
public struct CodeMark: Sendable, Hashable {
    /// Its index in `ButtonPipeline.enteredCodes`.
    public var index: Int32
    /// How many keys it has.
    public var length: Int32
    /// When the press that completed it was decided, in nanoseconds of `CLOCK_MONOTONIC`.
    public var timeNs: Int64

    public init(index: Int, length: Int, timeNs: Int64) {
        self.index = Int32(truncatingIfNeeded: index)
        self.length = Int32(truncatingIfNeeded: length)
        self.timeNs = timeNs
    }
}
