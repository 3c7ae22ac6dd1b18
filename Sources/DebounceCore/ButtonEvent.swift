/// A debounced event: what the button did, when the debouncer decided it, and when it really began.
///
/// The debouncer reports only `press` and `release`; a `GestureRecognizer` adds `hold`, `repeat`,
/// `click` and `longRelease` on top of them, and the press's duration to each release (`heldNs`).
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
        /// The release of a press that reached its hold (`hold` was reported): reported right after that
        /// release, at the same instant and with the same `heldNs`. Its JSON name is `long_release`.
        case longRelease = "long_release"
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
    /// For a `release` and a `longRelease`: how long the button was held, in nanoseconds: this
    /// release's onset minus its press's onset, both from the kernel's timestamps. 0 for every other
    /// kind, and for a release the debouncer reports alone (no recognizer or pipeline has seen its press).
    public var heldNs: Int64

    @inlinable
    public init(kind: Kind, timeNs: Int64, onsetNs: Int64, count: Int = 0, heldNs: Int64 = 0) {
        self.kind = kind
        self.timeNs = timeNs
        self.onsetNs = onsetNs
        self.count = count
        self.heldNs = heldNs
    }
}
