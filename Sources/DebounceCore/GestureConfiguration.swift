/// What a `GestureRecognizer` recognizes on top of the debouncer's press and release events.
///
/// Every feature is off by default: `GestureConfiguration()` passes press and release through
/// unchanged and adds nothing. Times are in nanoseconds; a negative duration counts as 0.
///
/// Definitions (a press's *onset* is `ButtonEvent.onsetNs`, when the contact closed; its *decision*
/// is `ButtonEvent.timeNs`, when the debouncer reported it):
/// - **hold**: reported once the button has been pressed for `holdNs`, measured from the onset, but
///   never before the press was decided: at `max(press.timeNs, press.onsetNs + holdNs)`. At most one per
///   press. A release decided before that time cancels it; a release decided exactly at that time
///   also cancels it (inputs at an instant come before decisions at that instant).
/// - **repeat**: reported while the button is still held: the first at `press.onsetNs + repeatDelayNs`
///   (an initial delay of its own, distinct from `holdNs`, gpiozero issue 1095), never before the press
///   was decided nor before the hold (if `holdNs` is set); then every `repeatIntervalNs` after the
///   previous one, until the release. Same tie rule as the hold.
/// - **click**: a press followed by its release, when the press was not *long* (it produced no hold and
///   no repeat). A press decided at most `clickWindowNs` after the previous click's release decision
///   continues that click's sequence (count 1, 2, 3, ...); a press decided exactly at the window's end
///   still continues it. `clickPolicy` says when the click is reported; `maxClickCount` ends a sequence.
///   The gap is measured between decisions, not onsets, because only decisions are known in time to
///   end the window; with the same debounce window for press and release the two gaps are equal.
/// - **throttle**: at most one reported press per `throttleNs`: a press decided less than `throttleNs`
///   after the previous *reported* press is swallowed, and so is its release (every reported release
///   follows a reported press); one decided exactly `throttleNs` after it passes. A swallowed press
///   neither starts, continues nor interrupts a click sequence.
/// - **groups** are not configured here but by a shared `GroupLockout` (see there).
public struct GestureConfiguration: Sendable, Hashable {
    /// When a multi-click sequence is reported.
    ///
    /// The trade-off: `.immediate` reports every click at its release with no added latency, but a
    /// double click is seen as a single click first (a handler for single clicks fires on double clicks
    /// too). `.exclusive` makes single, double, triple ... and long presses mutually exclusive, at the
    /// price of `clickWindowNs` of latency on every click (gpiozero issue 881): use it when single and
    /// double click do different things, `.immediate` when the count only adds to what one click does.
    public enum ClickPolicy: String, Sendable, Hashable, CaseIterable {
        /// At each release, report `click` with the count so far: a double click gives click 1, then
        /// click 2. A long press that follows clicks ends their sequence.
        case immediate
        /// Wait until `clickWindowNs` after the last release has passed with no new press, then report
        /// exactly one `click` with the final count. When a press that continues a sequence turns long,
        /// the clicks before it are reported at once (just before its hold or first repeat), and the long
        /// press itself never clicks. Reaching `maxClickCount` reports at once, with no wait.
        case exclusive
    }

    /// Hold time, measured from the press's onset; `nil`: no `hold` events.
    public var holdNs: Int64?
    /// Delay of the first `repeat`, measured from the press's onset; `nil`: no `repeat` events.
    public var repeatDelayNs: Int64?
    /// Interval between repeats after the first; `nil` or not positive: only the first repeat.
    public var repeatIntervalNs: Int64?
    /// The multi-click window W, from a click's release decision to the next press's decision;
    /// `nil`: no `click` events.
    public var clickWindowNs: Int64?
    /// When clicks are reported. Default `.immediate`.
    public var clickPolicy: ClickPolicy
    /// The highest count: the click that reaches it ends its sequence (the next press starts at 1), and
    /// under `.exclusive` is reported at its release. `nil` or less than 1: no maximum.
    public var maxClickCount: Int?
    /// Throttle interval between reported presses; `nil` or not positive: no throttle.
    public var throttleNs: Int64?

    /// A configuration; with no arguments, press and release pass through unchanged.
    public init(
        holdNs: Int64? = nil,
        repeatDelayNs: Int64? = nil,
        repeatIntervalNs: Int64? = nil,
        clickWindowNs: Int64? = nil,
        clickPolicy: ClickPolicy = .immediate,
        maxClickCount: Int? = nil,
        throttleNs: Int64? = nil
    ) {
        self.holdNs = holdNs
        self.repeatDelayNs = repeatDelayNs
        self.repeatIntervalNs = repeatIntervalNs
        self.clickWindowNs = clickWindowNs
        self.clickPolicy = clickPolicy
        self.maxClickCount = maxClickCount
        self.throttleNs = throttleNs
    }

    /// Whether this configuration adds nothing: press and release pass through unchanged (unless a
    /// `GroupLockout` swallows some).
    public var isPassthrough: Bool {
        holdNs == nil && repeatDelayNs == nil && clickWindowNs == nil && (throttleNs ?? 0) <= 0
    }
}
