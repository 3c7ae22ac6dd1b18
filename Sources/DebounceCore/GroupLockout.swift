/// Buttons that lock each other out: after any member's reported press, a press of any *other* member
/// decided less than `windowNs` later is swallowed, with its release (two buttons that push two
/// different screens must not both fire). A member's own presses are never locked out by the group
/// (that is `GestureConfiguration.throttleNs`), and each reported press starts a new window.
///
/// A plain value: a multi-button daemon holds one per group (e.g. `var groups: [GroupLockout]`) and
/// passes the group of a button to that button's recognizer, `recognizers[i].receive(event, group:
/// &groups[groupOfButton[i]])`; members are told apart by `GestureRecognizer.groupMember`. The lockout
/// is exact only if the group's press events are delivered in time order, as a driver that handles the
/// earliest event of all its lines first does. Ties: a press decided exactly `windowNs` after the
/// window's press is admitted (the window is over); of two members' presses decided at the same
/// instant, the one delivered first wins.
public struct GroupLockout: Sendable, Hashable {
    /// How long, after a member's reported press, the other members' presses are swallowed.
    /// A negative window counts as 0 (no lockout).
    public var windowNs: Int64
    /// The member whose reported press started the latest window; `nil` before the first one.
    public private(set) var holder: Int?
    /// The decision time of that press, in nanoseconds of `CLOCK_MONOTONIC`.
    public private(set) var holderPressNs: Int64 = 0
    /// How many presses the group has swallowed.
    public private(set) var lockedOutPresses = 0

    /// A group whose members lock each other out for `windowNs` after each reported press.
    public init(windowNs: Int64) {
        self.windowNs = windowNs
    }

    /// When the latest window ends (the first instant at which other members may press again);
    /// `nil` before the first press.
    public var lockedUntilNs: Int64? {
        guard holder != nil else { return nil }
        return holderPressNs.adding(durationNs: windowNs)
    }

    /// Whether a press of `member` decided at `timeNs` would be admitted. Changes nothing.
    public func admits(member: Int, atNs timeNs: Int64) -> Bool {
        guard let holder, holder != member, let lockedUntilNs else { return true }
        return timeNs >= lockedUntilNs
    }

    /// Asks for a press of `member` decided at `timeNs`: if admitted, records it (it starts a new
    /// window, held by `member`) and returns `true`; otherwise counts it in `lockedOutPresses` and
    /// returns `false`. A recognizer calls this only for a press it would otherwise report.
    public mutating func claim(member: Int, atNs timeNs: Int64) -> Bool {
        guard admits(member: member, atNs: timeNs) else {
            lockedOutPresses += 1
            return false
        }
        holder = member
        holderPressNs = timeNs
        return true
    }
}
