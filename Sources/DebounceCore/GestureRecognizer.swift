/// The gesture state machine for one button: the debouncer's press and release events in; those
/// events (unless swallowed) plus `hold`, `repeat`, `click` and `longRelease` out, each release with
/// how long its press was held (`ButtonEvent.heldNs`). `GestureConfiguration` defines each
/// gesture; with the default configuration press and release pass through unchanged.
///
/// Like the `Debouncer`, it never reads a clock and never sleeps. Time is what the events say
/// (`ButtonEvent.timeNs`, nanoseconds of `CLOCK_MONOTONIC`) and what the driver passes to
/// `advance(toNs:)`. The driver sleeps until `nextDeadlineNs` (the earlier of it and the debouncer's)
/// and then calls `advance(toNs:)` with the current time.
///
/// Ties: every input decided at an instant is applied before any decision due at that instant, so a
/// release decided exactly at the hold time cancels the hold, and a press decided exactly at the end
/// of a click window continues the sequence. `receive(_:)` makes only the decisions due strictly
/// before the input; a driver calls `advance(toNs:)` only with a time whose events it has all delivered.
///
/// Data that no debouncer produces, handled without a crash: an event stamped earlier than a time
/// already reached is applied as if stamped at that time (and reported so); a press while pressed, a
/// release while released, and gesture kinds are ignored.
///
/// A late driver: when one call passes several repeat times, one `repeat` is reported, stamped with
/// the latest of them (auto-repeat does not catch up; `coalescedRepeats` counts the others). So one
/// call reports at most `GestureOutput.capacity` events. Memory is O(1) and no input allocates.
public struct GestureRecognizer: Sendable {
    /// The gestures in force.
    public let configuration: GestureConfiguration
    /// This button's identity in its `GroupLockout`, if it belongs to one.
    public private(set) var groupMember: Int
    /// The latest time reached by an input or by `advance(toNs:)`, in nanoseconds.
    public private(set) var nowNs: Int64 = .min
    /// Presses swallowed by the throttle or by a group lockout (their releases are swallowed too).
    public private(set) var swallowedPresses = 0
    /// Repeats skipped because one call passed several repeat times (see the type's documentation).
    public private(set) var coalescedRepeats = 0

    /// The decision time of the latest reported press, for the throttle.
    private var lastReportedPressNs: Int64?
    /// Every change is an assignment, which renews `nextDeadlineNs`.
    private var state: State = .idle {
        didSet { nextDeadlineNs = deadline(in: state) }
    }

    /// A run of clicks: the count so far, when the latest one's release was decided, and its press's onset.
    private struct ClickRun: Sendable {
        var count: Int
        var releaseNs: Int64
        var onsetNs: Int64
    }

    /// A reported press that is still down.
    private struct Press: Sendable {
        /// The press's onset (`ButtonEvent.onsetNs`): holds and repeats are measured from it.
        var onsetNs: Int64
        /// When the hold is due; `nil` when hold is off or the hold was reported.
        var holdDueNs: Int64?
        /// When the next repeat is due; `nil` when repeat is off or the last repeat was reported.
        var repeatDueNs: Int64?
        /// Whether a hold or a repeat was reported: then the press is long, and its release is no click.
        var isLong: Bool
        /// Whether the hold was reported: then its release is followed by a `longRelease`.
        var hadHold = false
        /// The clicks this press continues (it was decided within their window), if any.
        var run: ClickRun?
    }

    private enum State: Sendable {
        /// Released, and no click run is open: the next press starts a new one (count 1). Nothing is due.
        case idle
        /// Released after a click run (`run.count` clicks, the latest released at `run.releaseNs`): a
        /// press decided at or before `run.releaseNs + clickWindowNs` continues it. Under `.exclusive`
        /// the run's click is reported at that instant if no press came; under `.immediate` its clicks
        /// were reported already, nothing is due, and the window is checked when the next press comes.
        case clicked(run: ClickRun)
        /// A reported press is down: its hold and repeats are due as `press` says; its release is
        /// reported, and is a click unless the press is long.
        case pressed(press: Press)
        /// A swallowed press (throttle or group lockout) is down: its release will be swallowed too.
        /// `run` is the click run open before it, untouched by it: under `.exclusive` its click is still
        /// reported at its window's end; when the release comes, the state returns to `clicked(run)`.
        case swallowing(run: ClickRun?)
    }

    /// A recognizer for one button; `groupMember` tells it apart from the others of its `GroupLockout`.
    public init(configuration: GestureConfiguration = GestureConfiguration(), groupMember: Int = 0) {
        self.configuration = configuration
        self.groupMember = groupMember
    }

    /// This recognizer, its state unchanged, as member `groupMember` of its group: a button whose
    /// place in a run changed (a reload) goes on with what it was doing.
    public func renumbered(groupMember: Int) -> GestureRecognizer {
        var copy = self
        copy.groupMember = groupMember
        return copy
    }

    /// When the next event is due, in nanoseconds of `CLOCK_MONOTONIC`; `nil` when none is (then the
    /// driver may sleep until the debouncer's next event, however long). Instants at which nothing can
    /// be reported (the end of an `.immediate` click window) are not deadlines. Stored (renewed with the
    /// state), so that a driver reads it in place after every input.
    public private(set) var nextDeadlineNs: Int64?

    /// The next deadline in `state`.
    private func deadline(in state: State) -> Int64? {
        switch state {
        case .idle, .swallowing(run: nil):
            return nil
        case .clicked(let run), .swallowing(let run?):
            return configuration.clickPolicy == .exclusive ? windowEndNs(run) : nil
        case .pressed(let press):
            guard let holdDueNs = press.holdDueNs else { return press.repeatDueNs }
            return min(holdDueNs, press.repeatDueNs ?? .max)
        }
    }

    /// Whether a reported press is down.
    public var isPressed: Bool {
        if case .pressed = state { true } else { false }
    }

    /// Applies one press or release from the debouncer. Decisions due strictly before its time are made
    /// first; their events come first in the output, then the input itself (unless swallowed), then a
    /// click it completes. A press is checked against the throttle only.
    public mutating func receive(_ event: ButtonEvent) -> GestureOutput {
        receive(event, admit: { _ in true })
    }

    /// Applies one press or release of a button that belongs to `group`: as `receive(_:)`, and a press
    /// the throttle lets through must also be admitted by the group (`GroupLockout.claim`), which then
    /// records it.
    public mutating func receive(_ event: ButtonEvent, group: inout GroupLockout) -> GestureOutput {
        let member = groupMember
        return receive(event, admit: { group.claim(member: member, atNs: $0) })
    }

    /// Moves time on to `timeNs` and makes every decision due at or before it. The caller promises that
    /// every event decided at or before `timeNs` has been received. A time earlier than one already
    /// reached changes nothing.
    public mutating func advance(toNs timeNs: Int64) -> GestureOutput {
        var output = GestureOutput()
        guard timeNs >= nowNs else { return output }
        nowNs = timeNs
        decide(through: timeNs, into: &output)
        return output
    }

    /// The end of a recorded trace: reports the click an `.exclusive` run still waits for, at its
    /// window's end, as if time ran on. A press still down gets no hold or repeat it has not had: a
    /// trace that ends does not say how long the button stayed down.
    public mutating func finish() -> GestureOutput {
        var output = GestureOutput()
        guard configuration.clickPolicy == .exclusive else { return output }
        switch state {
        case .clicked(let run), .swallowing(let run?):
            let timeNs = windowEndNs(run)
            nowNs = max(nowNs, timeNs)
            decide(through: timeNs, into: &output)
        default:
            break
        }
        return output
    }

    // MARK: - Transitions

    private mutating func receive(_ input: ButtonEvent, admit: (Int64) -> Bool) -> GestureOutput {
        var output = GestureOutput()
        guard input.kind == .press || input.kind == .release else { return output }
        let timeNs = max(input.timeNs, nowNs)
        if timeNs > .min { decide(through: timeNs - 1, into: &output) }
        nowNs = timeNs
        let event = ButtonEvent(kind: input.kind, timeNs: timeNs, onsetNs: min(input.onsetNs, timeNs))

        switch (event.kind, state) {
        case (.press, .idle), (.press, .clicked):
            var open: ClickRun?
            if case .clicked(let run) = state { open = run }
            guard throttleAdmits(timeNs), admit(timeNs) else {
                swallowedPresses += 1
                state = .swallowing(run: open)
                return output
            }
            lastReportedPressNs = timeNs
            // Under `.exclusive` a run whose window ended before now was reported above.
            let continued = open.flatMap { timeNs <= windowEndNs($0) ? $0 : nil }
            let holdDueNs = configuration.holdNs.map { max(timeNs, event.onsetNs.adding(durationNs: $0)) }
            let repeatDueNs = configuration.repeatDelayNs.map {
                max(holdDueNs ?? timeNs, event.onsetNs.adding(durationNs: $0))
            }
            state = .pressed(
                press: Press(
                    onsetNs: event.onsetNs, holdDueNs: holdDueNs, repeatDueNs: repeatDueNs, isLong: false,
                    run: continued))
            output.append(event)

        case (.release, .pressed(let press)):
            var release = event
            release.heldNs = event.onsetNs.durationNs(since: press.onsetNs)
            output.append(release)
            if press.hadHold {
                release.kind = .longRelease
                output.append(release)
            }
            state = .idle
            guard configuration.clickWindowNs != nil, !press.isLong else { break }
            let run = ClickRun(count: (press.run?.count ?? 0) + 1, releaseNs: timeNs, onsetNs: press.onsetNs)
            let reachedMaximum = run.count >= (configuration.maxClickCount.map { $0 >= 1 ? $0 : .max } ?? .max)
            if configuration.clickPolicy == .immediate || reachedMaximum {
                output.append(Self.click(run, atNs: timeNs))
            }
            if !reachedMaximum { state = .clicked(run: run) }

        case (.release, .swallowing(let run)):
            state = run.map { .clicked(run: $0) } ?? .idle

        case (.press, .pressed), (.press, .swallowing), (.release, .idle), (.release, .clicked):
            break  // A press while pressed, a release while released: not from a debouncer; ignored.

        default:
            break  // Gesture kinds were filtered out above.
        }
        return output
    }

    /// Makes the decisions due at or before `limitNs`.
    private mutating func decide(through limitNs: Int64, into output: inout GestureOutput) {
        while let dueNs = nextDeadlineNs, dueNs <= limitNs {
            decide(at: dueNs, latestNs: limitNs, into: &output)
        }
    }

    /// The decision due at `dueNs`, in a call that makes the decisions due up to `latestNs`.
    private mutating func decide(at dueNs: Int64, latestNs: Int64, into output: inout GestureOutput) {
        switch state {
        case .clicked(let run):
            // The end of an `.exclusive` window with no new press: the run's one click.
            output.append(Self.click(run, atNs: dueNs))
            state = .idle
        case .swallowing(let run?):
            output.append(Self.click(run, atNs: dueNs))
            state = .swallowing(run: nil)
        case .pressed(var press):
            // The press turns long: under `.exclusive` the clicks it continued are reported now, before
            // its hold or repeat; under `.immediate` they were reported, and the run just ends.
            if let run = press.run {
                if configuration.clickPolicy == .exclusive { output.append(Self.click(run, atNs: dueNs)) }
                press.run = nil
            }
            press.isLong = true
            if press.holdDueNs == dueNs {
                // The hold comes first when a repeat is due at the same instant: repeats never precede it.
                press.holdDueNs = nil
                press.hadHold = true
                output.append(ButtonEvent(kind: .hold, timeNs: dueNs, onsetNs: press.onsetNs))
            } else {
                let (timeNs, nextNs) = repeatTimes(dueNs: dueNs, latestNs: latestNs)
                press.repeatDueNs = nextNs
                output.append(ButtonEvent(kind: .repeat, timeNs: timeNs, onsetNs: press.onsetNs))
            }
            state = .pressed(press: press)
        case .idle, .swallowing(run: nil):
            break  // Nothing is due (nextDeadlineNs is nil).
        }
    }

    /// For a repeat due at `dueNs`, in a call that decides up to `latestNs`: the time of the one repeat
    /// reported (the latest repeat time not after `latestNs`) and when the next one is due (`nil`: none).
    private mutating func repeatTimes(dueNs: Int64, latestNs: Int64) -> (timeNs: Int64, nextNs: Int64?) {
        guard let intervalNs = configuration.repeatIntervalNs, intervalNs > 0 else { return (dueNs, nil) }
        // `latestNs >= dueNs`: their difference fits in a UInt64, and so does the offset reached.
        let skipped = UInt64(bitPattern: latestNs &- dueNs) / UInt64(intervalNs)
        let timeNs = dueNs &+ Int64(bitPattern: skipped &* UInt64(intervalNs))
        coalescedRepeats += Int(truncatingIfNeeded: skipped)
        let nextNs = timeNs.adding(durationNs: intervalNs)
        return (timeNs, nextNs > timeNs ? nextNs : nil)
    }

    /// Whether the throttle lets a press decided at `timeNs` through.
    private func throttleAdmits(_ timeNs: Int64) -> Bool {
        guard let throttleNs = configuration.throttleNs, throttleNs > 0, let lastReportedPressNs else { return true }
        return timeNs >= lastReportedPressNs.adding(durationNs: throttleNs)
    }

    /// The last instant at which a press continues `run`.
    private func windowEndNs(_ run: ClickRun) -> Int64 {
        run.releaseNs.adding(durationNs: configuration.clickWindowNs ?? 0)
    }

    private static func click(_ run: ClickRun, atNs timeNs: Int64) -> ButtonEvent {
        ButtonEvent(kind: .click, timeNs: timeNs, onsetNs: run.onsetNs, count: run.count)
    }

}

/// The events one input of a `GestureRecognizer` produced, in time order: a fixed-capacity inline
/// buffer, so that no input allocates.
///
/// Capacity 5 suffices: one call makes the decisions due before (or at) its time and then applies at
/// most one input. While a press is down, the decisions are at most a click its run still owed
/// (`.exclusive`, once, when the press turns long), the hold (once) and one repeat (repeats due in one
/// call are coalesced); the input then adds a release and, after a hold, a long release, and completes
/// no click once the press is long. So a release gives at most click + hold + repeat + release + long
/// release = 5, and otherwise release + click = 2. While released, the only decision is an `.exclusive`
/// click (1), and the input adds at most a press (2).
public struct GestureOutput: RandomAccessCollection, Sendable, Equatable {
    /// The most events one input can produce.
    public static let capacity = 5

    /// How many events there are.
    public private(set) var count = 0
    private var slot0 = GestureOutput.empty
    private var slot1 = GestureOutput.empty
    private var slot2 = GestureOutput.empty
    private var slot3 = GestureOutput.empty
    private var slot4 = GestureOutput.empty

    private static var empty: ButtonEvent { ButtonEvent(kind: .press, timeNs: 0, onsetNs: 0) }

    /// No events.
    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> ButtonEvent {
        precondition(position >= 0 && position < count, "GestureOutput index out of range")
        switch position {
        case 0: return slot0
        case 1: return slot1
        case 2: return slot2
        case 3: return slot3
        default: return slot4
        }
    }

    /// Adds an event; more than `capacity` is a bug in the recognizer (see the capacity argument above).
    mutating func append(_ event: ButtonEvent) {
        precondition(count < Self.capacity, "GestureOutput capacity exceeded")
        switch count {
        case 0: slot0 = event
        case 1: slot1 = event
        case 2: slot2 = event
        case 3: slot3 = event
        default: slot4 = event
        }
        count += 1
    }

    public static func == (lhs: GestureOutput, rhs: GestureOutput) -> Bool {
        lhs.elementsEqual(rhs)
    }
}
