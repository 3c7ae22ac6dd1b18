/// The state machine of one selector switch: its lines' changes in, its position out once the lines'
/// reading has held for the settle time (`SelectorConfiguration.settleNs`).
///
/// The lines' raw changes go in, not debounced ones: any change starts the settle time again, so a
/// line's bounce, the gap while a rotary switch moves between positions (break-before-make) and
/// the lines of a coded switch changing one after another report nothing. A reading that holds is
/// reported when it differs from the one last reported: a valid one as `select` (with the previous
/// position), an invalid one as `invalid`, each invalid reading once.
///
/// Like the `Debouncer`, it reads no clock: time is what the changes say and what the driver passes
/// to `advance(toNs:)`; the driver wakes at `nextDeadlineNs`. Ties: a change at the instant a reading
/// would be reported is applied first, so that reading did not hold. Memory is O(1); nothing allocates.
public struct SelectorDecoder: Sendable {
    public let configuration: SelectorConfiguration
    /// The lines that read active now, as bits (line 0 is bit 0).
    public private(set) var activeLines: UInt32
    /// The position last reported, or read at the start; `nil` while no valid reading has been.
    public private(set) var position: Int?
    /// Whether the reading last reported was invalid (`position` is then the one before it).
    public private(set) var isInvalid = false
    /// The latest time reached by a change or by `advance(toNs:)`, in nanoseconds.
    public private(set) var nowNs: Int64
    /// When the current reading will have held for the settle time; `nil` when it was decided.
    public private(set) var nextDeadlineNs: Int64?
    /// Invalid readings that held and were reported (health: a switch between positions, a broken wire).
    public private(set) var invalidReadings = 0
    /// Readings that changed again before they held for the settle time (a moving switch, bounce).
    public private(set) var unsettledReadings = 0

    /// When the current reading began, in nanoseconds.
    private var readingOnsetNs: Int64
    /// The invalid reading last reported, while `isInvalid`.
    private var reportedInvalidLines: UInt32 = 0

    /// A switch whose lines read `activeLines` at `timeNs` (the run's start). A valid reading is its
    /// position at once, which whoever starts the run reports; an invalid one (a switch caught between
    /// positions) is decided after the settle time, as a change would be.
    public init(configuration: SelectorConfiguration, activeLines: UInt32, atNs timeNs: Int64) {
        self.configuration = configuration
        self.activeLines = activeLines
        self.nowNs = timeNs
        self.readingOnsetNs = timeNs
        if let value = configuration.value(ofActiveLines: activeLines) {
            position = value
        } else {
            nextDeadlineNs = timeNs.adding(durationNs: Self.settleNs(configuration))
        }
    }

    /// Applies one line's change (`isActive`: it reads active now) at `timeNs`. A reading due strictly
    /// before the change held, and is reported first; the change then starts the settle time anew.
    public mutating func receive(line: Int, isActive: Bool, atNs timeNs: Int64) -> SelectorEvent? {
        let timeNs = max(timeNs, nowNs)
        var reported: SelectorEvent?
        if let dueNs = nextDeadlineNs, dueNs < timeNs { reported = decide(atNs: dueNs) }
        nowNs = timeNs
        guard line >= 0, line < min(configuration.lineCount, 32) else { return reported }
        let bit: UInt32 = 1 << UInt32(line)
        let updated = isActive ? activeLines | bit : activeLines & ~bit
        guard updated != activeLines else { return reported }
        if nextDeadlineNs != nil { unsettledReadings += 1 }
        activeLines = updated
        readingOnsetNs = timeNs
        nextDeadlineNs = timeNs.adding(durationNs: Self.settleNs(configuration))
        return reported
    }

    /// Moves time on to `timeNs`: reports the current reading if it has held for the settle time by then.
    public mutating func advance(toNs timeNs: Int64) -> SelectorEvent? {
        guard timeNs >= nowNs else { return nil }
        nowNs = timeNs
        guard let dueNs = nextDeadlineNs, dueNs <= timeNs else { return nil }
        return decide(atNs: dueNs)
    }

    /// The settle time, at least 1 ns: a change is never decided at its own instant, so a change
    /// reports at most the one reading before it.
    private static func settleNs(_ configuration: SelectorConfiguration) -> Int64 {
        max(1, configuration.settleNs)
    }

    /// The current reading held until `dueNs`: reported if it differs from the one last reported.
    private mutating func decide(atNs dueNs: Int64) -> SelectorEvent? {
        nextDeadlineNs = nil
        if let value = configuration.value(ofActiveLines: activeLines) {
            guard isInvalid || value != position else { return nil }
            let previous = position
            position = value
            isInvalid = false
            return SelectorEvent(kind: .select(position: value, previous: previous), timeNs: dueNs, onsetNs: readingOnsetNs)
        }
        guard !isInvalid || reportedInvalidLines != activeLines else { return nil }
        isInvalid = true
        reportedInvalidLines = activeLines
        invalidReadings += 1
        return SelectorEvent(kind: .invalid(activeLines: activeLines), timeNs: dueNs, onsetNs: readingOnsetNs)
    }
}
