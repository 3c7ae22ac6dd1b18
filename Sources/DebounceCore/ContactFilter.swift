/// The state machine of one contact: its debouncer's press (on) and release (off) in, the states that
/// lasted their delay out (`ContactConfiguration`). A change that turns back before its delay is over
/// is never reported, and neither is its return: the reported state stays as it was.
///
/// Delays are measured from the change's onset (the kernel's timestamp of its first edge), so a door
/// that must stay open 2 s is reported 2 s after it opened, whatever the debounce window; and a door
/// that closed (its closing's onset) before its 2 s were over is never reported open, even when the
/// debouncer decides that closing after them. The driver makes that possible: while the debouncer
/// still weighs a change whose onset falls before a pending change's due time, it `postpone`s the
/// decision to the debouncer's next deadline.
///
/// Like the `Debouncer`, it reads no clock: time is what the events say and what the driver passes to
/// `advance(toNs:)`; the driver wakes at `nextDeadlineNs`. Ties: an input decided at an instant is
/// applied before a decision due at that instant, so a door that closes exactly when its "open" would
/// be reported was never reported open. Memory is O(1); nothing allocates.
public struct ContactFilter: Sendable {
    public let configuration: ContactConfiguration
    /// The state last reported (at the start: the state read then).
    public private(set) var isOn: Bool
    /// The latest time reached by an input or by `advance(toNs:)`, in nanoseconds.
    public private(set) var nowNs: Int64
    /// When a pending change is due; `nil` when none is pending.
    public private(set) var nextDeadlineNs: Int64?
    /// Changes that turned back before their delay was over (never reported).
    public private(set) var suppressedChanges = 0

    /// The onset of the reported state (the run's start for the first one).
    private var stateOnsetNs: Int64
    /// Whether the reported state began before the run (its duration is unknown).
    private var stateBeganBeforeRun = true
    /// The onset of the pending change, when one is pending.
    private var pendingOnsetNs: Int64 = 0

    /// A contact that reads `isOn` at `timeNs` (the run's start): that state is reported by whoever
    /// starts the run, not by the filter.
    public init(configuration: ContactConfiguration = ContactConfiguration(), isOn: Bool, atNs timeNs: Int64) {
        self.configuration = configuration
        self.isOn = isOn
        self.nowNs = timeNs
        self.stateOnsetNs = timeNs
    }

    /// Applies one debounced event: `press` is on, `release` is off (other kinds are ignored). A
    /// pending change due strictly before the event is reported first; the event then reports at once
    /// (no delay, or its delay is over already) or becomes pending, or cancels the pending change.
    public mutating func receive(_ event: ButtonEvent) -> ContactOutput {
        var output = ContactOutput()
        guard event.kind == .press || event.kind == .release else { return output }
        let timeNs = max(event.timeNs, nowNs)
        // A pending change due before this event's onset lasted its delay; one due at or after it did not.
        let lastedThrough = min(timeNs, event.onsetNs)
        if lastedThrough > .min { output.first = decide(through: lastedThrough - 1) }
        nowNs = timeNs
        let wantsOn = event.kind == .press
        guard wantsOn != isOn else {
            if nextDeadlineNs != nil {
                nextDeadlineNs = nil
                suppressedChanges += 1
            }
            return output
        }
        guard nextDeadlineNs == nil else { return output }  // Already pending: its onset stands.
        let onsetNs = min(event.onsetNs, timeNs)
        let delayNs = wantsOn ? configuration.onDelayNs : configuration.offDelayNs
        pendingOnsetNs = onsetNs
        nextDeadlineNs = max(timeNs, onsetNs.adding(durationNs: delayNs))
        if let due = nextDeadlineNs, due <= timeNs { output.second = report(atNs: due) }
        return output
    }

    /// Moves time on to `timeNs`: reports the pending change if it is due by then.
    public mutating func advance(toNs timeNs: Int64) -> ContactEvent? {
        guard timeNs >= nowNs else { return nil }
        nowNs = timeNs
        return decide(through: timeNs)
    }

    /// Moves a pending change's decision to `timeNs` if that is later (the debouncer is still weighing
    /// a change that began before the pending one was due): it is then reported at `timeNs` unless an
    /// input cancels it first.
    public mutating func postpone(toNs timeNs: Int64) {
        guard let due = nextDeadlineNs, timeNs > due else { return }
        nextDeadlineNs = timeNs
    }

    /// The end of a recorded input: a pending change is reported at its due time, as if time ran on
    /// with the contact unchanged.
    public mutating func finish() -> ContactEvent? {
        guard let due = nextDeadlineNs else { return nil }
        nowNs = max(nowNs, due)
        return report(atNs: due)
    }

    private mutating func decide(through limitNs: Int64) -> ContactEvent? {
        guard let due = nextDeadlineNs, due <= limitNs else { return nil }
        return report(atNs: due)
    }

    private mutating func report(atNs timeNs: Int64) -> ContactEvent {
        let previousNs = stateBeganBeforeRun ? 0 : pendingOnsetNs.durationNs(since: stateOnsetNs)
        isOn.toggle()
        stateOnsetNs = pendingOnsetNs
        stateBeganBeforeRun = false
        nextDeadlineNs = nil
        return ContactEvent(isOn: isOn, timeNs: timeNs, onsetNs: pendingOnsetNs, previousDurationNs: previousNs)
    }
}

/// What one input of a `ContactFilter` reported: at most a pending change that fell due before it
/// (`first`) and the input's own change (`second`), in time order. Inline: nothing allocates.
public struct ContactOutput: Sendable, Hashable {
    public var first: ContactEvent?
    public var second: ContactEvent?

    public init(first: ContactEvent? = nil, second: ContactEvent? = nil) {
        self.first = first
        self.second = second
    }

    /// The events in time order.
    public var events: [ContactEvent] { [first, second].compactMap { $0 } }
}
