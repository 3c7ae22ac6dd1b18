/// A debounced event: what the button did, when the debouncer decided it, and when it really began.
public struct ButtonEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The button went from released to pressed.
        case press
        /// The button went from pressed to released.
        case release
    }

    /// Press or release.
    public var kind: Kind
    /// When the debouncer decided, in nanoseconds of `CLOCK_MONOTONIC`: for `defer(W)` the last
    /// edge + W, for `eager` the edge itself (or the end of a lockout or glitch window).
    public var timeNs: Int64
    /// When the transition began, in nanoseconds of `CLOCK_MONOTONIC`: the earliest edge, since the
    /// debouncer last settled in the previously reported state, that moved the raw level away from it.
    /// Always `onsetNs <= timeNs`. Use it for exact press durations.
    public var onsetNs: Int64

    @inlinable
    public init(kind: Kind, timeNs: Int64, onsetNs: Int64) {
        self.kind = kind
        self.timeNs = timeNs
        self.onsetNs = onsetNs
    }
}
