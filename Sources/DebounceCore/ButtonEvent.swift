/// A debounced event: what the button did, when the debouncer decided it, and when it really began.
///
/// The debouncer reports only `press` and `release`; a `GestureRecognizer` adds `hold`, `repeat` and
/// `click` on top of them.
public struct ButtonEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The button went from released to pressed.
        case press
        /// The button went from pressed to released.
        case release
        /// The button has been held down for the configured hold time (`GestureConfiguration.holdNs`).
        /// At most one per press.
        case hold
        /// The button is still held down: auto-repeat (`GestureConfiguration.repeatDelayNs`, then every
        /// `GestureConfiguration.repeatIntervalNs`), until the release.
        case `repeat`
        /// A click (a press and its release that was not a hold); `count` says which of a multi-click
        /// sequence (1: single, 2: double, ...).
        case click
    }

    /// Press, release, or a gesture.
    public var kind: Kind
    /// When the debouncer decided, in nanoseconds of `CLOCK_MONOTONIC`: for `defer(W)` the last
    /// edge + W, for `eager` the edge itself (or the end of a lockout or glitch window). For a gesture,
    /// when the recognizer decided it.
    public var timeNs: Int64
    /// When the transition began, in nanoseconds of `CLOCK_MONOTONIC`: the earliest edge, since the
    /// debouncer last settled in the previously reported state, that moved the raw level away from it.
    /// Always `onsetNs <= timeNs`. Use it for exact press durations. For a gesture, the onset of the
    /// press it belongs to.
    public var onsetNs: Int64
    /// For a `click`, its count in the multi-click sequence (1, 2, 3, ...); 0 for every other kind.
    public var count: Int

    @inlinable
    public init(kind: Kind, timeNs: Int64, onsetNs: Int64, count: Int = 0) {
        self.kind = kind
        self.timeNs = timeNs
        self.onsetNs = onsetNs
        self.count = count
    }
}
