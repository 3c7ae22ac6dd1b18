import DebounceCore

/// A rotary encoder the pipeline decodes: the indices of its lines A and B among the run's lines, and
/// its `EncoderConfiguration`. Its lines' own `LinePlan`s must be raw (`LinePlan.raw`): the decoder
/// takes every change itself, bounce included (bounce nets to nothing in it; see `QuadratureDecoder`).
public struct EncoderPlan: Sendable, Hashable {
    public var lineA: Int
    public var lineB: Int
    public var configuration: EncoderConfiguration
    /// The position its decoder starts at (clamped into the configuration's range): 0, or the
    /// position a state file kept (`restore: true`).
    public var initialPosition: Int
    /// The input it is (`OutputSource.input` of its outputs): its index in the run's one ordered list
    /// of inputs; nil: its index among the pipeline's encoders (a run with no other inputs' list).
    public var input: Int?

    public init(lineA: Int, lineB: Int, configuration: EncoderConfiguration = EncoderConfiguration(), initialPosition: Int = 0, input: Int? = nil) {
        self.input = input
        self.lineA = lineA
        self.lineB = lineB
        self.configuration = configuration
        self.initialPosition = initialPosition
    }
}
