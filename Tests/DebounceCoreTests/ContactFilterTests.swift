import DebounceCore
import Testing

/// Contacts' on and off delays (ESPHome's `delayed_on`/`delayed_off`), drawn as timelines
/// (notation: `ContactMarble`).
@Suite struct ContactDelayMarbleTests {
    @Test func withoutDelaysEveryDebouncedChangeIsReportedAtOnce() {
        ContactMarble.expect("--P---R--P-R", reports: "--1---0--1-0")
    }

    @Test func onDelayIsMeasuredFromTheOnsetNotFromTheDecision() {
        // Onset 2, decided 4, on_delay 5: reported at 7, not 9.
        ContactMarble.expect("--p-P---------R", reports: "       1      0", onDelay: 5)
    }

    @Test func aChangeThatTurnsBackBeforeItsDelayIsNeverReportedNorIsItsReturn() {
        // A door open for 3 ticks with on_delay 5: nothing; then open for 8: on at 5 after its onset.
        ContactMarble.expect("--P--R----P-------R", reports: "               1  0", onDelay: 5)
    }

    @Test func offDelayKeepsAMotionSensorOnThroughShortGaps() {
        // A PIR off for 3 ticks between detections, off_delay 6: stays on; the last off is reported 6 later.
        ContactMarble.expect("-P---R--P----R", reports: "-1                 0", offDelay: 6)
    }

    @Test func aChangeDueExactlyWhenTheContactTurnsBackIsNotReported() {
        // on_delay 4 from onset 1 is due at 5; the release decided at 5 comes first.
        ContactMarble.expect("-P---R", reports: "", onDelay: 4)
        ContactMarble.expect("-P----R", reports: "     1R".replacingOccurrences(of: "R", with: "0"), onDelay: 4)
    }

    @Test func aDecisionLaterThanTheDelayIsReportedAtTheDecision() {
        // Onset 1, decided 9 (a long debounce window), on_delay 3: the delay was over by then.
        ContactMarble.expect("-p-------P---R", reports: "         1   0", onDelay: 3)
    }

    @Test func previousDurationIsFromOnsetToOnset() {
        let changes = ContactMarble.expect("-p-P-----r--R--P-R", reports: "   1        0  1 0")
        // The first change's previous state began before the run: unknown, 0.
        #expect(changes.map(\.previousDurationNs) == [0, ContactMarble.ns(8), ContactMarble.ns(6), ContactMarble.ns(2)])
        #expect(changes.map(\.onsetNs) == [1, 9, 15, 17].map { ContactMarble.ns($0) })
    }
}

@Suite struct ContactFilterTests {
    @Test func finishReportsAPendingChangeAtItsDueTime() {
        var filter = ContactFilter(configuration: ContactConfiguration(onDelayNs: 100), isOn: false, atNs: 0)
        #expect(filter.receive(ButtonEvent(kind: .press, timeNs: 10, onsetNs: 5)).events.isEmpty)
        #expect(filter.nextDeadlineNs == 105)
        #expect(filter.finish() == ContactEvent(isOn: true, timeNs: 105, onsetNs: 5))
        #expect(filter.finish() == nil)
    }

    @Test func gesturesAndRepeatedStatesChangeNothing() {
        var filter = ContactFilter(isOn: true, atNs: 0)
        #expect(filter.receive(ButtonEvent(kind: .hold, timeNs: 3, onsetNs: 1)).events.isEmpty)
        #expect(filter.receive(ButtonEvent(kind: .press, timeNs: 4, onsetNs: 4)).events.isEmpty)
        #expect(filter.suppressedChanges == 0)
        #expect(filter.receive(ButtonEvent(kind: .release, timeNs: 9, onsetNs: 8)).events == [ContactEvent(isOn: false, timeNs: 9, onsetNs: 8)])
    }

    @Test func aPendingChangeDueBeforeAnInputIsReportedFirstInOneOutput() {
        var filter = ContactFilter(configuration: ContactConfiguration(onDelayNs: 10, offDelayNs: 0), isOn: false, atNs: 0)
        _ = filter.receive(ButtonEvent(kind: .press, timeNs: 2, onsetNs: 2))
        // The driver slept past 12: the release at 20 brings the on (due 12) and the off.
        let output = filter.receive(ButtonEvent(kind: .release, timeNs: 20, onsetNs: 19))
        #expect(output.events == [ContactEvent(isOn: true, timeNs: 12, onsetNs: 2), ContactEvent(isOn: false, timeNs: 20, onsetNs: 19, previousDurationNs: 17)])
        #expect(filter.suppressedChanges == 0)
    }

    @Test func aChangeWhoseReturnBeganBeforeItsDelayWasOverIsNeverReportedHoweverLateTheReturnIsDecided() {
        // Open (onset 2) due at 7; the closing's onset 5 is decided only at 9 (a long debounce window).
        var filter = ContactFilter(configuration: ContactConfiguration(onDelayNs: 5), isOn: false, atNs: 0)
        _ = filter.receive(ButtonEvent(kind: .press, timeNs: 3, onsetNs: 2))
        filter.postpone(toNs: 9)  // the driver saw the undecided closing at 7
        #expect(filter.advance(toNs: 7) == nil)
        #expect(filter.receive(ButtonEvent(kind: .release, timeNs: 9, onsetNs: 5)).events.isEmpty)
        #expect(!filter.isOn && filter.suppressedChanges == 1)
        // Without a postponing driver, a late input still cancels what did not last.
        var late = ContactFilter(configuration: ContactConfiguration(onDelayNs: 5), isOn: false, atNs: 0)
        _ = late.receive(ButtonEvent(kind: .press, timeNs: 3, onsetNs: 2))
        #expect(late.receive(ButtonEvent(kind: .release, timeNs: 9, onsetNs: 5)).events.isEmpty)
        #expect(!late.isOn)
    }

    @Test func suppressedChangesAreCounted() {
        var filter = ContactFilter(configuration: ContactConfiguration(onDelayNs: 10), isOn: false, atNs: 0)
        for start in stride(from: Int64(0), to: 100, by: 20) {
            _ = filter.receive(ButtonEvent(kind: .press, timeNs: start + 1, onsetNs: start + 1))
            _ = filter.receive(ButtonEvent(kind: .release, timeNs: start + 5, onsetNs: start + 5))
        }
        #expect(filter.suppressedChanges == 5 && !filter.isOn && filter.nextDeadlineNs == nil)
    }
}

/// Pulse counting: every debounced press is one pulse, from the total a state file kept.
@Suite struct PulseCounterTests {
    @Test func eachPressCountsOnceFromTheStartingTotalWithItsInterval() {
        var counter = PulseCounter(total: 41)
        #expect(counter.receive(ButtonEvent(kind: .press, timeNs: 12, onsetNs: 10)) == PulseCount(total: 42, timeNs: 12, onsetNs: 10))
        #expect(counter.receive(ButtonEvent(kind: .release, timeNs: 60, onsetNs: 58, heldNs: 48)) == nil)
        #expect(counter.receive(ButtonEvent(kind: .hold, timeNs: 70, onsetNs: 10)) == nil)
        let second = counter.receive(ButtonEvent(kind: .press, timeNs: 1_000_000_012, onsetNs: 1_000_000_010))
        #expect(second == PulseCount(total: 43, timeNs: 1_000_000_012, onsetNs: 1_000_000_010, intervalNs: 1_000_000_000, rate: 60))
        #expect(second?.ratePerMinute == 60)
        #expect(counter.total == 43)
    }

    @Test func aNegativeStartIsZeroAndTheTotalSaturates() {
        #expect(PulseCounter(total: -5).total == 0)
        var counter = PulseCounter(total: .max)
        #expect(counter.receive(ButtonEvent(kind: .press, timeNs: 1, onsetNs: 1))?.total == .max)
    }
}
