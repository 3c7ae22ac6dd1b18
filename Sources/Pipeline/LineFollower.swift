import DebounceCore

/// What follows one line's edges in the pipeline, decided once from its `LinePlan` (and the
/// `EncoderPlan` it may belong to). Every function that treats lines by kind switches over it
/// exhaustively, so a new kind does not compile until each of them says what it does.
///
/// A debounced line's state (its `Debouncer` and the stage after it, a few hundred bytes) lives in
/// the pipeline's array for its kind, where it is changed in place; the case holds its index there,
/// always valid. (An enum's payload can only be changed by copying it out and back in, which the
/// compiled code would do on every edge.) A raw line's state is a few bytes and is the payload.
enum LineFollower: Sendable {
    /// Not debounced: its edges go to the sinks as they are (`LinePlan.raw`, recording).
    case raw(RawLine)
    /// One of an encoder's two lines, not debounced: its changes go to the encoder's decoder.
    case encoder(EncoderLine)
    /// One of a selector switch's lines, not debounced: its changes go to the selector's decoder
    /// (`SelectorLine`, `ButtonPipeline+Selectors`).
    case selector(SelectorLine)
    /// A button with no gesture and no group: its debouncer's presses and releases are its events
    /// (`PressFollower`, index in `ButtonPipeline.presses`).
    case presses(Int)
    /// A button with gestures or a group (`GestureFollower`, index in `ButtonPipeline.gestures`).
    case gestures(Int)
    /// A contact (`ContactFollower`, index in `ButtonPipeline.contacts`).
    case contact(Int)
    /// A pulse counter (`CounterFollower`, index in `ButtonPipeline.counters`).
    case counter(Int)
    /// An encoder's reset button (`ResetFollower`, index in `ButtonPipeline.resets`).
    case reset(Int)

    /// Whether something after the debouncer (or the line itself) can have decisions of its own due
    /// (`ButtonPipeline.decideStage`): a decoder, gestures, a contact's delays, a meter's rate. A plain
    /// button's and a reset's debouncer is all there is, and a raw line has nothing: no call for them
    /// at an eager press's decision.
    var hasStage: Bool {
        switch self {
        case .encoder, .selector, .gestures, .contact, .counter: true
        case .raw, .presses, .reset: false
        }
    }
}

/// A raw line's state: its level after the latest delivered edge (or the latest reading), and that
/// edge's time in nanoseconds.
struct RawLine: Sendable {
    var level: Level
    var lastEdgeNs: Int64
}

/// An encoder line's state: which encoder (index in `ButtonPipeline.encoders`), which of its lines
/// this is, and the time of the line's latest edge in nanoseconds. Its level is in the encoder's state.
struct EncoderLine: Sendable {
    let encoder: Int
    let side: QuadratureDecoder.Line
    var lastEdgeNs: Int64
}

/// An `EncoderPlan` as it runs: its decoder, its lines, and their levels after the latest delivered
/// edge or reading.
struct EncoderState: Sendable {
    var decoder: QuadratureDecoder
    /// What its outputs name: its input and line A.
    let source: OutputSource
    let lineA: Int
    let lineB: Int
    var levelA: Level
    var levelB: Level
}

/// A debounced line's follower: its debouncer and the stage that takes the debouncer's events.
/// The pipeline's generic helpers drive every kind through these requirements.
protocol DebouncedFollower: Sendable {
    var debouncer: Debouncer { get set }
    /// The stage's own next deadline, in nanoseconds (`nil`: none).
    var stageDeadlineNs: Int64? { get }
    /// A debounced event of the line `source` names into the stage; what the stage reports goes out,
    /// naming `source` (its input and line). `groups` are the pipeline's group lockouts.
    mutating func follow(_ event: ButtonEvent, source: OutputSource, groups: inout [GroupLockout], into outputs: inout [PipelineOutput])
    /// The stage's decisions due by `timeNs`, once the debouncer's were made.
    mutating func advanceStage(toNs timeNs: Int64, source: OutputSource, into outputs: inout [PipelineOutput])
    /// The stage's pending decisions at the end of a recorded input, once the debouncer's were made.
    mutating func finishStage(source: OutputSource, into outputs: inout [PipelineOutput])
}
