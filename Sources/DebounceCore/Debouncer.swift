/// The debouncing state machine for one button: timestamped edges in, press and release events out.
///
/// It never reads a clock and never sleeps. Time is what the edges say (the kernel's event
/// timestamps, nanoseconds of `CLOCK_MONOTONIC`) and what the driver passes to `advance(toNs:)`.
/// The driver sleeps until `nextEventDeadlineNs` (one deadline per burst of bounce, not one timer per
/// edge; none for a decision that can only settle) and then calls `advance(toNs:)` with the current
/// time. `nextDeadlineNs` is every pending decision, for a driver that must look at the line then.
///
/// Ties: every edge stamped at an instant is applied before any decision due at that instant, so an
/// edge exactly at a deadline (a defer window's end, a glitch window's end, a lockout's end) counts
/// as arriving before it. To honour this, `receive(_:)` makes only the decisions due strictly before
/// the edge, and a driver calls `advance(toNs:)` only with a time whose edges it has all delivered.
///
/// Data that a real line produces, handled without a crash:
/// - An edge stamped earlier than a time already reached is applied as if stamped at that time
///   (`DebounceStatistics.clampedTimestamps`).
/// - An edge to the level the line already has (a duplicate: the kernel lost the edge between)
///   restarts a pending window, because the line did move; while settled it is ignored
///   (`DebounceStatistics.duplicateEdges`). `resync(level:atNs:)` repairs what lost edges hid.
///
/// Every input returns at most one event: between two edges the raw level is constant, so the
/// reported state changes at most once. Memory is O(1) and no input allocates.
public struct Debouncer: Sendable {
    /// The strategies and polarity in force.
    public let configuration: DebounceConfiguration
    /// The reported (debounced) state: `true` after a press event, `false` after a release.
    public private(set) var isPressed: Bool
    /// The raw level after the latest edge (or resync).
    public private(set) var rawLevel: Level
    /// The latest time reached by an edge or by `advance(toNs:)`, in nanoseconds.
    public private(set) var nowNs: Int64
    /// What the debouncer has seen so far.
    public private(set) var statistics = DebounceStatistics()

    /// When the next decision is due, in nanoseconds of `CLOCK_MONOTONIC`; `nil` when settled
    /// (then the driver may sleep until the next edge, however long).
    ///
    /// This and `nextEventDeadlineNs` are stored, renewed whenever the state changes: a driver asks
    /// for them after every input, and a stored property is read in place, with no call and no copy
    /// of the debouncer.
    public private(set) var nextDeadlineNs: Int64?

    /// When the next decision that can report an event is due, in nanoseconds; `nil` when none can.
    /// A pending decision whose raw level equals the reported state (the end of an eager lockout no
    /// edge disturbed, a burst of bounce that came back) can only settle: it needs no wakeup, and the
    /// next edge, `advance(toNs:)` or `finish()` makes it. So a driver that trusts its edges sleeps
    /// until this, not `nextDeadlineNs`: one wakeup per clean eager press, not two.
    public private(set) var nextEventDeadlineNs: Int64?

    /// The time of the latest edge, in nanoseconds: windows are measured from it.
    private var lastEdgeNs: Int64
    /// Edges received since the debouncer was last settled (the burst under way).
    private var burstEdges = 0
    /// Events reported since the debouncer was last settled.
    private var burstEvents = 0
    /// Changed only through `enter(_:)` (after the reported state and raw level are set), which
    /// renews the two deadlines.
    private var state: State = .settled

    private enum State: Sendable {
        /// Nothing is pending: the raw level equals the reported state, has held it for the window of
        /// the direction away from it, and no lockout runs. Only an edge leaves this state.
        case settled
        /// A decision is due at `deadlineNs`: the raw level is then reported if it differs from the
        /// reported state, otherwise the debouncer settles. `lockoutEndNs` is the end of the eager
        /// lockout in force, if any: no decision falls before it. `onsetNs` is the first edge, since
        /// the debouncer was last settled in the reported state, that moved the raw level away from it.
        case pending(deadlineNs: Int64, lockoutEndNs: Int64?, onsetNs: Int64?)
    }

    /// A debouncer whose line reads `initialLevel` at `timeNs`; the initial level emits nothing.
    public init(configuration: DebounceConfiguration, initialLevel: Level, atNs timeNs: Int64 = 0) {
        self.configuration = configuration
        self.isPressed = configuration.activeLevel.isPressed(initialLevel)
        self.rawLevel = initialLevel
        self.nowNs = timeNs
        self.lastEdgeNs = timeNs
    }

    /// The onset of a change away from the reported state that is not decided yet (the first edge of
    /// a burst still bouncing or waiting out its window), in nanoseconds; `nil` when none is pending.
    /// A stage that measures from onsets (a contact's delay) waits for it before deciding past it.
    public var pendingOnsetNs: Int64? {
        guard case .pending(_, _, let onsetNs) = state else { return nil }
        return onsetNs
    }

    /// Whether no decision is pending.
    public var isSettled: Bool { nextDeadlineNs == nil }

    /// The statistics as they stand at `timeNs` (at or after every edge received): the decisions due
    /// by then are made on a copy first, so that a burst that is over but not yet settled (a glitch on a
    /// quiet line settles only at the next edge or advance) counts. Changes nothing.
    public func statistics(asOfNs timeNs: Int64) -> DebounceStatistics {
        var copy = self
        _ = copy.advance(toNs: timeNs)
        return copy.statistics
    }

    /// Applies one edge. Decisions due strictly before the edge's time are made first; the event one
    /// of them reported, if any, is returned. The edge's own decision is never made here, even for
    /// `eager` with no glitch window: call `advance(toNs:)` once every edge of that instant is in.
    public mutating func receive(_ edge: Edge) -> ButtonEvent? {
        statistics.edges += 1
        var timeNs = edge.timeNs
        if timeNs < nowNs {
            statistics.clampedTimestamps += 1
            timeNs = nowNs
        }
        let event = decide(before: timeNs)
        nowNs = timeNs
        apply(edge.level, atNs: timeNs)
        if case .pending = state { burstEdges += 1 }
        return event
    }

    /// Moves time on to `timeNs` and makes every decision due at or before it. The caller promises
    /// that every edge stamped at or before `timeNs` has been received. A time earlier than one
    /// already reached changes nothing.
    public mutating func advance(toNs timeNs: Int64) -> ButtonEvent? {
        guard timeNs >= nowNs else { return nil }
        nowNs = timeNs
        return decide(through: timeNs)
    }

    /// Makes every pending decision as if time ran on past every deadline: the end of a recorded trace.
    public mutating func finish() -> ButtonEvent? {
        var event: ButtonEvent?
        while case .pending(let deadlineNs, _, _) = state {
            nowNs = max(nowNs, deadlineNs)
            if let decided = decide(at: deadlineNs) { event = decided }
        }
        return event
    }

    /// Tells the debouncer the line's level as the driver just read it at `timeNs` (e.g. once a burst
    /// settled, when edges may have been lost). A level the edges had not shown is applied as an edge
    /// at `timeNs`, so the reported state converges to the real level even when edges were lost.
    public mutating func resync(level: Level, atNs timeNs: Int64) -> ButtonEvent? {
        let timeNs = max(timeNs, nowNs)
        let event = decide(before: timeNs)
        nowNs = timeNs
        if level != rawLevel {
            statistics.resyncCorrections += 1
            apply(level, atNs: timeNs)
        }
        return event
    }

    // MARK: - Transitions

    // `decide(before:)`, `enter(_:)` and `apply(_:atNs:)` run on every edge: inlined into `receive`,
    // without a call of their own each.

    /// Makes the decisions due strictly before `timeNs`.
    @inline(__always)
    private mutating func decide(before timeNs: Int64) -> ButtonEvent? {
        var event: ButtonEvent?
        while case .pending(let deadlineNs, _, _) = state, deadlineNs < timeNs {
            if let decided = decide(at: deadlineNs) { event = decided }
        }
        return event
    }

    /// Makes the decisions due at or before `timeNs`. Inlined into `advance(toNs:)`, which an eager
    /// press's own decision takes.
    @inline(__always)
    private mutating func decide(through timeNs: Int64) -> ButtonEvent? {
        var event: ButtonEvent?
        while case .pending(let deadlineNs, _, _) = state, deadlineNs <= timeNs {
            if let decided = decide(at: deadlineNs) { event = decided }
        }
        return event
    }

    /// The decision due at `deadlineNs`: report the raw level if it differs, else settle.
    @inline(__always)
    private mutating func decide(at deadlineNs: Int64) -> ButtonEvent? {
        guard case .pending(_, _, let onsetNs) = state else { return nil }
        let rawPressed = configuration.activeLevel.isPressed(rawLevel)
        guard rawPressed != isPressed else {
            endBurst()
            enter(.settled)
            return nil
        }
        let rule = configuration.strategy(leaving: isPressed)
        isPressed = rawPressed
        if rawPressed { statistics.presses += 1 } else { statistics.releases += 1 }
        let event = ButtonEvent(kind: rawPressed ? .press : .release, timeNs: deadlineNs, onsetNs: onsetNs ?? deadlineNs)
        burstEvents += 1
        // An eager report locks out both directions; the way back must also have held for its window.
        let lockoutEndNs: Int64? = rule.lockoutNs > 0 ? deadlineNs.adding(durationNs: rule.lockoutNs) : nil
        let nextNs = max(lockoutEndNs ?? .min, lastEdgeNs.adding(durationNs: configuration.strategy(leaving: isPressed).stabilityNs))
        if nextNs > deadlineNs {
            enter(.pending(deadlineNs: nextNs, lockoutEndNs: lockoutEndNs, onsetNs: nil))
        } else {
            endBurst()
            enter(.settled)
        }
        return event
    }

    /// The burst under way ends (the debouncer settles): its edges count as bounce absorbed when it
    /// reported events, else as a glitch (one or two edges) or a noise burst (more).
    private mutating func endBurst() {
        if burstEvents > 0 {
            statistics.bouncesAbsorbed += max(0, burstEdges - burstEvents)
        } else if burstEdges > 2 {
            statistics.noiseBursts += 1
        } else if burstEdges > 0 {
            statistics.glitchesRejected += 1
        }
        burstEdges = 0
        burstEvents = 0
    }

    /// The one way the state changes: sets it, then `nextDeadlineNs` and `nextEventDeadlineNs` from it.
    @inline(__always)
    private mutating func enter(_ newState: State) {
        state = newState
        renewDeadlines()
    }

    /// Sets `nextDeadlineNs` and `nextEventDeadlineNs` from the state just set.
    @inline(__always)
    private mutating func renewDeadlines() {
        if case .pending(let deadlineNs, _, _) = state {
            nextDeadlineNs = deadlineNs
            nextEventDeadlineNs = configuration.activeLevel.isPressed(rawLevel) != isPressed ? deadlineNs : nil
        } else {
            nextDeadlineNs = nil
            nextEventDeadlineNs = nil
        }
    }

    /// Applies an edge to `level` at `timeNs`, after the decisions due before it were made.
    @inline(__always)
    private mutating func apply(_ level: Level, atNs timeNs: Int64) {
        if level == rawLevel {
            statistics.duplicateEdges += 1
            if case .settled = state { return }
        }
        rawLevel = level
        lastEdgeNs = timeNs
        let windowEndNs = timeNs.adding(durationNs: configuration.strategy(leaving: isPressed).stabilityNs)
        let movedAway = configuration.activeLevel.isPressed(level) != isPressed
        switch state {
        case .settled:
            enter(.pending(deadlineNs: windowEndNs, lockoutEndNs: nil, onsetNs: timeNs))
        case .pending(_, let lockoutEndNs, let onsetNs):
            enter(
                .pending(
                    deadlineNs: max(lockoutEndNs ?? .min, windowEndNs),
                    lockoutEndNs: lockoutEndNs,
                    onsetNs: onsetNs ?? (movedAway ? timeNs : nil)
                ))
        }
    }

}
