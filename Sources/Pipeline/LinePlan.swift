import DebounceCore

/// Which stages one line goes through.
public struct LinePlan: Sendable, Hashable {
    /// The debouncer's strategies and polarity; `nil` for a raw line (recording), whose edges reach the
    /// sinks undebounced.
    public var debounce: DebounceConfiguration?
    /// The gestures on top of press and release; the default passes them through unchanged.
    public var gestures: GestureConfiguration
    /// Index of the line's `GroupLockout` in the pipeline's groups, if it belongs to one.
    public var group: Int?
    /// What the debounced line is: a button (gestures, `PipelineOutput.event`), a contact or a
    /// counter. A contact or a counter has no gestures and no group.
    public var role: LineRole
    /// The input the line belongs to (`OutputSource.input` of its outputs): its index in the run's one
    /// ordered list of inputs; nil: the line's own index (each line an input of its own, as in `watch`,
    /// `replay` and the library).
    public var input: Int?

    public init(
        debounce: DebounceConfiguration?, gestures: GestureConfiguration = GestureConfiguration(), group: Int? = nil, role: LineRole = .button,
        input: Int? = nil
    ) {
        self.input = input
        self.debounce = debounce
        self.gestures = gestures
        self.group = group
        self.role = role
    }

    /// A raw line: edges only, for recording.
    public static let raw = LinePlan(debounce: nil)
}

/// What a debounced line is, and so which stage follows its debouncer.
public enum LineRole: Sendable, Hashable {
    /// A button: gestures and groups; `PipelineOutput.event`.
    case button
    /// A contact (door, window, PIR): its states after their delays (`ContactFilter`);
    /// `PipelineOutput.contact`.
    case contact(ContactConfiguration)
    /// A meter's pulse output: each press counted from `initialTotal` (`PulseCounter`), its rate as
    /// `rate` says; `PipelineOutput.count` and `PipelineOutput.rate`.
    case counter(initialTotal: Int64, rate: MeterRateConfiguration = MeterRateConfiguration())
    /// An encoder's reset button: each press sets encoder `encoder` (its index among the pipeline's
    /// `EncoderPlan`s) to `position` (`ResetFollower`); `PipelineOutput.positionReset`.
    case encoderReset(encoder: Int, position: Int)
}
