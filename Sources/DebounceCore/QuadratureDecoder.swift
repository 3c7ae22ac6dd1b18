/// The quadrature state machine for one rotary encoder: timestamped changes of its lines A and B in,
/// one `EncoderEvent` per detent out. `EncoderConfiguration` says where the detents are.
///
/// Like the `Debouncer`, it never reads a clock and never sleeps; time is what the changes say
/// (nanoseconds of `CLOCK_MONOTONIC`) and what the driver passes to `advance(toNs:)`.
///
/// How it counts. Each change of one line moves the knob one transition (a quarter of the cycle) one
/// way or the other, so the decoder keeps the knob's position in transitions exactly, whatever the
/// order of the changes. Bounce toggles one line between two neighbouring states: it moves that
/// position back and forth and nets to nothing. A detent is counted when the position reaches the next
/// detent position (a whole detent from the last one counted): a turn started and taken back (jiggle)
/// reaches none, a reversal in mid-detent counts when it reaches the detent behind, and bounce at a
/// detent just counted moves one transition back, a whole detent short of counting again (the
/// hysteresis). With `.one` step per detent every position is a detent, and a reversal's first
/// transition looks like bounce at the detent just counted until time tells them apart (settling).
///
/// Settling (`.one` step per detent). A reversal's first transition counts once the lines have held
/// still for `EncoderConfiguration.settleNs` where it went, or at once when a second transition the
/// same way follows, stamped with its own onset: of the lines' departures from the detent that way
/// since they last held still, the one after the longest stay there (bounce stays briefly). Bounce
/// returns to the detent within the settle and counts nothing. The settle's end is a deadline
/// (`nextDeadlineNs`); `finish()` takes the end of the input as the lines holding still. After
/// `suspectLoss()` no settle counts until `resync(a:b:atNs:)` (the lines may not be where the changes
/// say): a reversal then counts only when it moves two transitions. While a skip waits, none settles.
///
/// Observations. Changes stamped with the same timestamp are one observation (as a sampling logic
/// analyser sees them): they are gathered, and applied once time moves past them (a later change,
/// `advance(toNs:)`, `finish()`). `nextDeadlineNs` is the time of a gathered observation (or of a
/// settle), so a driver that advances to it gets its detents without waiting for the next change;
/// `receive(a:b:atNs:)` applies both lines' levels at once.
///
/// Skipped states. An observation in which both lines changed skips a state: two transitions, but
/// which way cannot be read. The decoder never guesses: it follows the single changes after the skip,
/// and when the lines move two transitions on from where the skip landed, the way they moved just
/// before it, without ever going one back, the knob was turning that way fast and the skip is
/// inferred (`EncoderStatistics.inferredSkips`; its detents are reported then, stamped with their own
/// times). Bounce on the way on (one transition on and back) is allowed. Otherwise (one transition
/// back from the landing, which is also what bounce of the skip's second line looks like; no single
/// change just before the skip; another skip; a resync; the end of the input) it is lost
/// (`EncoderStatistics.lostSkips`): counting starts afresh from the landing if it is a detent
/// position, else from the next detent position the lines reach. A lost skip costs the detents
/// between, and never makes one. The one case the evidence cannot catch is a turn that reverses both
/// just before and just after a skip (two transitions back and forth within one sample), which a hand
/// cannot do at a speed that skips states.
///
/// Lost kernel events: `resync(a:b:atNs:)` with the levels read from the lines resynchronises
/// without counting a detent. Data that real lines produce, handled without a crash: a change stamped
/// earlier than a time already reached is applied at that time (`clampedTimestamps`); a change to the
/// level a line already has changes nothing (`duplicateChanges`).
///
/// Memory is O(1) and no input allocates; every input reports at most `EncoderOutput.capacity` detents.
public struct QuadratureDecoder: Sendable {
    /// The encoder's two lines.
    public enum Line: Int, Sendable, Hashable, CaseIterable {
        /// Line A: it leads when turned clockwise.
        case a = 0
        /// Line B.
        case b = 1
    }

    /// The detents and position rules in force.
    public let configuration: EncoderConfiguration
    /// The position: the sum of the reported detents' increments, clamped or wrapped into the range.
    public private(set) var position: Int
    /// Line A's level after the latest applied observation (or resync).
    public private(set) var levelA: Level
    /// Line B's level after the latest applied observation (or resync).
    public private(set) var levelB: Level
    /// The latest time reached by a change or by `advance(toNs:)`, in nanoseconds.
    public private(set) var nowNs: Int64
    /// What the decoder has seen so far.
    public private(set) var statistics = EncoderStatistics()
    /// The earliest of the gathered observation's time and the settle's end, in nanoseconds; `nil`
    /// when there is neither (then the driver may sleep until the next change, however long).
    public var nextDeadlineNs: Int64? {
        guard let settleDueNs else { return gatheredNs }
        guard let gatheredNs else { return settleDueNs }
        return min(gatheredNs, settleDueNs)
    }

    /// The time of the gathered observation not yet applied, in nanoseconds; `nil` when there is none.
    private var gatheredNs: Int64?
    /// The gathered observation's levels (valid while `gatheredNs` is set).
    private var gatheredA: Level
    private var gatheredB: Level
    /// The knob's position in transitions, clockwise positive, from an origin at which A and B read 11:
    /// its value modulo 4 is the phase of the levels (11: 0, 01: 1, 00: 2, 10: 3).
    private var transitions: Int
    /// Where the next detents are, or `nil` until the lines reach a detent position (at the start when
    /// they read between two, and after a lost skip or a resync).
    private var anchor: Anchor?
    /// The latest time `transitions` left the anchor's rest position: the onset of the next detent.
    private var departureNs: Int64
    /// The direction of the latest single transition (+1, -1), 0 when none counts as evidence.
    private var lastTransition = 0
    /// A skip waiting for the changes after it to show its direction.
    private var pendingSkip: PendingSkip?
    /// Whether the latest reported detent was clockwise (after `reverse`), `nil` before the first.
    private var lastClockwise: Bool?
    private var velocity = DetentVelocity()
    /// With `.one` step per detent: the reversal's onset (see Settling), its direction (+1, -1) and the
    /// stay before it, in nanoseconds; `nil` while the lines rest.
    private var settleOnset: (timeNs: Int64, direction: Int, stayNs: Int64)?
    /// The time of the latest observation applied that moved the lines (or of the start, or of a resync).
    private var lastMoveNs: Int64
    /// When the lines, still since their latest move, have settled: `settleNs` after that move; `nil`
    /// when no settle is pending (they rest, or a skip waits).
    private var settleDueNs: Int64?
    /// Whether edges may have been lost since the latest resync: no settle counts (`suspectLoss()`).
    private var settleWithheld = false

    /// Where the decoder counts from: the position of the latest detent counted (or reached), and the
    /// positions at which the next clockwise and anticlockwise detents count, in transitions.
    private struct Anchor: Sendable {
        var restAt: Int
        var clockwiseAt: Int
        var counterClockwiseAt: Int
    }

    /// A decoder whose lines read `a` and `b` at `timeNs`, at `position` (clamped into the range).
    /// The initial levels count nothing; when they are not at a detent position, counting starts at
    /// the first detent position the lines reach.
    public init(configuration: EncoderConfiguration = EncoderConfiguration(), a: Level = .high, b: Level = .high, atNs timeNs: Int64 = 0, position: Int = 0) {
        self.configuration = configuration
        self.position = configuration.clamped(position)
        self.levelA = a
        self.levelB = b
        self.gatheredA = a
        self.gatheredB = b
        self.nowNs = timeNs
        self.departureNs = timeNs
        self.lastMoveNs = timeNs
        self.transitions = Self.phase(a: a, b: b)
        let steps = configuration.stepsPerDetent.rawValue
        if transitions % steps == 0 {
            anchor = Anchor(restAt: transitions, clockwiseAt: transitions + steps, counterClockwiseAt: transitions - steps)
        }
    }

    /// Sets the position to `position`, clamped into the range (a reset button's press: `reset_line:`).
    /// Only the position changes: the lines' phase, the next detents and the speed are kept, so the
    /// next detent counts from the new position as it would have from the old one.
    public mutating func reset(to position: Int) {
        self.position = configuration.clamped(position)
    }

    /// Applies one line's change to `level` at `timeNs`. Changes at one timestamp are gathered into one
    /// observation, applied once time moves past it; the detents of an earlier observation this change
    /// applies are returned. Call `advance(toNs:)` once every change of an instant is in.
    public mutating func receive(line: Line, level: Level, atNs timeNs: Int64) -> EncoderOutput {
        statistics.changes += 1
        var output = EncoderOutput()
        let timeNs = gather(atNs: timeNs, into: &output)
        switch line {
        case .a:
            if gatheredA == level { statistics.duplicateChanges += 1 }
            gatheredA = level
        case .b:
            if gatheredB == level { statistics.duplicateChanges += 1 }
            gatheredB = level
        }
        gatheredNs = timeNs
        return output
    }

    /// Applies the levels of both lines at `timeNs` as one observation (a sample of both): any earlier
    /// gathered observation first, then this one (with changes gathered at the same instant) at once.
    public mutating func receive(a: Level, b: Level, atNs timeNs: Int64) -> EncoderOutput {
        var output = EncoderOutput()
        let timeNs = gather(atNs: timeNs, into: &output)
        if a != gatheredA { statistics.changes += 1 }
        if b != gatheredB { statistics.changes += 1 }
        gatheredA = a
        gatheredB = b
        gatheredNs = timeNs
        applyGathered(into: &output)
        return output
    }

    /// Moves time on to `timeNs`, applies the gathered observation if it is at or before it, and
    /// counts a reversal whose settle ends by then. The caller promises that every change stamped at or
    /// before `timeNs` has been received. A time earlier than one already reached changes nothing.
    public mutating func advance(toNs timeNs: Int64) -> EncoderOutput {
        var output = EncoderOutput()
        guard timeNs >= nowNs else { return output }
        nowNs = timeNs
        applyGathered(into: &output)
        if let dueNs = settleDueNs, dueNs <= timeNs { settle(into: &output) }
        return output
    }

    /// The end of the input (a recorded trace): applies the gathered observation; the lines hold still
    /// from their latest change on (a pending reversal counts); a skip still waiting for the change
    /// after it is lost.
    public mutating func finish() -> EncoderOutput {
        var output = EncoderOutput()
        applyGathered(into: &output)
        if settleDueNs != nil { settle(into: &output) }
        loseSkip(into: &output)
        return output
    }

    /// Edges may have been lost (the driver saw a sequence gap or a full queue): until the next
    /// `resync(a:b:atNs:)`, no reversal counts by settling, since the lines may not be where their
    /// changes say; a reversal counts only when it moves two transitions.
    public mutating func suspectLoss() {
        settleWithheld = true
    }

    /// Tells the decoder the lines' levels as the driver just read them at `timeNs`, after the kernel
    /// reported lost events: the gathered observation is applied, then the decoder takes these levels
    /// without counting a detent (the changes between are unknown) and counts afresh from the next
    /// detent position, this one if the lines are at one.
    public mutating func resync(a: Level, b: Level, atNs timeNs: Int64) -> EncoderOutput {
        var output = EncoderOutput()
        applyGathered(into: &output)
        nowNs = max(nowNs, timeNs)
        loseSkip(into: &output)
        let difference = (Self.phase(a: a, b: b) - Self.phase(a: levelA, b: levelB)) & 3
        if difference != 0 {
            statistics.resyncCorrections += 1
            // Any count with the right phase will do: the anchor is set afresh from it.
            transitions += difference == 3 ? -1 : difference
        }
        levelA = a
        levelB = b
        gatheredA = a
        gatheredB = b
        lastTransition = 0
        departureNs = nowNs
        lastMoveNs = nowNs
        settleWithheld = false
        reanchor()
        return output
    }

    // MARK: - Observations

    /// Applies the gathered observation if it is before `timeNs` (clamped to `nowNs`), counts a
    /// reversal whose settle ends by then (the lines held still until this change), moves time on, and
    /// starts gathering at that time; returns the time.
    private mutating func gather(atNs timeNs: Int64, into output: inout EncoderOutput) -> Int64 {
        var timeNs = timeNs
        if timeNs < nowNs {
            statistics.clampedTimestamps += 1
            timeNs = nowNs
        }
        if let gatheredNs, gatheredNs < timeNs { applyGathered(into: &output) }
        if let dueNs = settleDueNs, dueNs <= timeNs { settle(into: &output) }
        nowNs = timeNs
        return timeNs
    }

    /// Applies the gathered observation, if any.
    private mutating func applyGathered(into output: inout EncoderOutput) {
        guard let timeNs = gatheredNs else { return }
        gatheredNs = nil
        let difference = (Self.phase(a: gatheredA, b: gatheredB) - Self.phase(a: levelA, b: levelB)) & 3
        levelA = gatheredA
        levelB = gatheredB
        switch difference {
        case 0: return  // a line changed and changed back within one instant
        case 2:
            skip(atNs: timeNs, into: &output)
            lastMoveNs = timeNs
        default:
            single(difference == 1 ? 1 : -1, atNs: timeNs, into: &output)
            lastMoveNs = timeNs
            armSettle(afterMoveAtNs: timeNs)
        }
    }

    /// Both lines changed at `timeNs`: the skip waits for the single changes after it (and no settle
    /// counts meanwhile).
    private mutating func skip(atNs timeNs: Int64, into output: inout EncoderOutput) {
        statistics.skips += 1
        loseSkip(into: &output)
        pendingSkip = PendingSkip(timeNs: timeNs, before: lastTransition)
        lastTransition = 0
        settleDueNs = nil
    }

    /// One line changed at `timeNs`, moving the knob one transition `direction` (+1 clockwise). While
    /// a skip waits, the transition is followed from the skip's landing: two transitions on, the way
    /// the knob moved before the skip, without ever one back, infer it; one back, or no direction
    /// before it, lose it.
    private mutating func single(_ direction: Int, atNs timeNs: Int64, into output: inout EncoderOutput) {
        lastTransition = direction
        guard var skip = pendingSkip else {
            move(direction, atNs: timeNs, into: &output)
            return
        }
        skip.offset += direction
        let ahead = skip.offset * skip.before
        if ahead == 1, direction == skip.before {
            skip.firstAheadNs = skip.firstAheadNs ?? timeNs
            skip.latestAheadNs = timeNs
        }
        pendingSkip = skip
        if skip.before == 0 || ahead == -1 {
            loseSkip(into: &output)
            lastTransition = direction
        } else if ahead == 2, let firstAheadNs = skip.firstAheadNs {
            pendingSkip = nil
            statistics.inferredSkips += 1
            move(direction, atNs: skip.timeNs, into: &output)
            move(direction, atNs: skip.timeNs, into: &output)
            move(direction, atNs: firstAheadNs, into: &output)
            // Bounce at the landing: the knob left it for good at the latest of its moves on.
            if anchor?.restAt == transitions - direction { departureNs = skip.latestAheadNs }
            move(direction, atNs: timeNs, into: &output)
        }
    }

    /// The waiting skip's direction is unknown: its two transitions are lost (either way lands on the
    /// same phase). Counting starts afresh at the landing when it is a detent position (a path that
    /// reaches a detent position leaves the count there, whichever way it came), then the transitions
    /// moved since are applied, stamped `nowNs` (only the last of them can reach a detent).
    private mutating func loseSkip(into output: inout EncoderOutput) {
        guard let skip = pendingSkip else { return }
        pendingSkip = nil
        statistics.lostSkips += 1
        transitions += 2
        departureNs = skip.timeNs
        lastTransition = 0
        reanchor()
        for _ in 0..<skip.offset.magnitude { move(skip.offset > 0 ? 1 : -1, atNs: nowNs, into: &output) }
    }

    // MARK: - Counting

    /// Anchors at the current position if it is a detent position, with the hysteresis of an unknown
    /// history (the next detent either way is a whole detent plus the reversal allowance away);
    /// otherwise leaves the decoder unanchored.
    private mutating func reanchor() {
        settleOnset = nil
        settleDueNs = nil
        let steps = configuration.stepsPerDetent.rawValue
        guard transitions % steps == 0 else {
            anchor = nil
            return
        }
        let allowance = reversalAllowance
        anchor = Anchor(restAt: transitions, clockwiseAt: transitions + steps + allowance, counterClockwiseAt: transitions - steps - allowance)
    }

    /// The extra transitions a reversal must make before it counts without settling: 1 with `.one`
    /// step per detent (its first transition looks like bounce until it holds), else 0 (bounce moves
    /// one transition, less than a detent).
    private var reversalAllowance: Int { configuration.stepsPerDetent == .one ? 1 : 0 }

    /// Moves the knob one transition `direction` at `timeNs`, and reports the detent it completes.
    /// With `.one` step per detent, a reversal's second transition the same way first reports the
    /// detent of its first, at that one's onset.
    private mutating func move(_ direction: Int, atNs timeNs: Int64, into output: inout EncoderOutput) {
        transitions += direction
        guard let anchor else {
            if transitions % configuration.stepsPerDetent.rawValue == 0 {
                departureNs = timeNs
                reanchor()
            }
            return
        }
        if transitions - direction == anchor.restAt {
            departureNs = timeNs
            // A later departure the same way after a shorter stay is bounce on the way: the onset stays.
            let stayNs = max(0, timeNs - lastMoveNs)
            if settleOnset.map({ $0.direction != direction || $0.stayNs < stayNs }) ?? true { settleOnset = (timeNs, direction, stayNs) }
        }
        let steps = configuration.stepsPerDetent.rawValue
        if transitions == anchor.clockwiseAt {
            if transitions - anchor.restAt > steps { reportFirstOfReversal(direction, secondAtNs: timeNs, into: &output) }
            self.anchor = Anchor(restAt: transitions, clockwiseAt: transitions + steps, counterClockwiseAt: transitions - steps - reversalAllowance)
            report(clockwise: !configuration.reverse, atNs: timeNs, into: &output)
        } else if transitions == anchor.counterClockwiseAt {
            if anchor.restAt - transitions > steps { reportFirstOfReversal(direction, secondAtNs: timeNs, into: &output) }
            self.anchor = Anchor(restAt: transitions, clockwiseAt: transitions + steps + reversalAllowance, counterClockwiseAt: transitions - steps)
            report(clockwise: configuration.reverse, atNs: timeNs, into: &output)
        }
    }

    /// A reversal's second transition the same way at `timeNs` (`.one` step per detent): reports the
    /// detent of its first, stamped with its onset; the second one's onset is its own time.
    private mutating func reportFirstOfReversal(_ direction: Int, secondAtNs timeNs: Int64, into output: inout EncoderOutput) {
        let onsetNs = settleOnset.flatMap { $0.direction == direction ? $0.timeNs : nil } ?? departureNs
        report(clockwise: (direction > 0) != configuration.reverse, atNs: min(onsetNs, timeNs), into: &output)
        departureNs = timeNs
    }

    /// After a single transition at `timeNs` (`.one` step per detent): the lines, away from the rest
    /// position or back at it after leaving, settle `settleNs` later unless they move again first.
    private mutating func armSettle(afterMoveAtNs timeNs: Int64) {
        let pending = configuration.stepsPerDetent == .one && pendingSkip == nil && settleOnset != nil && anchor != nil
        settleDueNs = pending ? timeNs.adding(durationNs: configuration.settleNs) : nil
    }

    /// The lines have held still for `settleNs`: one transition from the rest position (a reversal's
    /// first, as nothing else stops there uncounted), it is a detent, stamped with its onset, unless a
    /// loss is suspected; back at the rest position, what left it was bounce.
    private mutating func settle(into output: inout EncoderOutput) {
        settleDueNs = nil
        guard let anchor, let onset = settleOnset else { return }
        let offset = transitions - anchor.restAt
        if offset == 0 { settleOnset = nil }
        guard !settleWithheld, offset == onset.direction else { return }
        let (clockwiseAt, counterClockwiseAt) = offset > 0 ? (transitions + 1, transitions - 2) : (transitions + 2, transitions - 1)
        self.anchor = Anchor(restAt: transitions, clockwiseAt: clockwiseAt, counterClockwiseAt: counterClockwiseAt)
        report(clockwise: (offset > 0) != configuration.reverse, atNs: onset.timeNs, into: &output)
    }

    /// Reports one detent at `timeNs` and moves the position; the lines rest at the new detent.
    private mutating func report(clockwise: Bool, atNs timeNs: Int64, into output: inout EncoderOutput) {
        settleOnset = nil
        settleDueNs = nil
        let reversed = lastClockwise.map { $0 != clockwise } ?? false
        lastClockwise = clockwise
        let speed = velocity.record(atNs: timeNs, reversed: reversed, windowNs: configuration.velocityWindowNs)
        var increment = 1
        if let acceleration = configuration.acceleration, speed >= acceleration.thresholdPerSecond {
            increment = max(1, acceleration.factor)
        }
        position = configuration.moved(position, by: clockwise ? increment : -increment)
        if clockwise { statistics.clockwise += 1 } else { statistics.counterClockwise += 1 }
        output.append(
            EncoderEvent(
                direction: clockwise ? .clockwise : .counterClockwise, position: position, increment: increment,
                velocity: speed, timeNs: timeNs, onsetNs: min(departureNs, timeNs)))
    }

    /// The phase of the levels along the clockwise cycle 11 → 01 → 00 → 10: 0, 1, 2, 3.
    @inline(__always)
    private static func phase(a: Level, b: Level) -> Int {
        switch (a, b) {
        case (.high, .high): 0
        case (.low, .high): 1
        case (.low, .low): 2
        case (.high, .low): 3
        }
    }
}
