import DebounceCore
import Simulation
import PropertyBased
import Testing

/// A gesture configuration in ticks of 1 ms (`GestureMarble.tickNs`).
private func gestures(
    hold: Int64? = nil, repeatDelay: Int64? = nil, repeatInterval: Int64? = nil, clickWindow: Int64? = nil,
    policy: GestureConfiguration.ClickPolicy = .immediate, maxCount: Int? = nil, throttle: Int64? = nil
) -> GestureConfiguration {
    GestureConfiguration(
        holdNs: hold.map(GestureMarble.ns), repeatDelayNs: repeatDelay.map(GestureMarble.ns),
        repeatIntervalNs: repeatInterval.map(GestureMarble.ns), clickWindowNs: clickWindow.map(GestureMarble.ns),
        clickPolicy: policy, maxClickCount: maxCount, throttleNs: throttle.map(GestureMarble.ns))
}

private func press(_ timeNs: Int64, onset: Int64? = nil) -> ButtonEvent {
    ButtonEvent(kind: .press, timeNs: timeNs, onsetNs: onset ?? timeNs)
}

/// A release as the debouncer reports it (`held` 0), or as the recognizer reports it: `held` the time
/// from its press's onset to its own.
private func release(_ timeNs: Int64, onset: Int64? = nil, held: Int64 = 0) -> ButtonEvent {
    ButtonEvent(kind: .release, timeNs: timeNs, onsetNs: onset ?? timeNs, heldNs: held)
}

/// The long release that follows the release of a held press, with the same times and `held`.
private func longRelease(_ timeNs: Int64, onset: Int64? = nil, held: Int64) -> ButtonEvent {
    ButtonEvent(kind: .longRelease, timeNs: timeNs, onsetNs: onset ?? timeNs, heldNs: held)
}

private func gesture(_ kind: ButtonEvent.Kind, _ timeNs: Int64, onset: Int64, count: Int = 0) -> ButtonEvent {
    ButtonEvent(kind: kind, timeNs: timeNs, onsetNs: onset, count: count)
}

// MARK: - Timelines

/// Hold and repeat, drawn as timelines (notation: `GestureMarble`).
@Suite struct GestureHoldMarbleTests {
    @Test func defaultConfigurationPassesPressAndReleaseThrough() {
        GestureMarble.expect(
            "P--R-P-R--pP-rR",
            passed: "P--R-P-R   P  R",
            gestures: "", GestureConfiguration())
    }

    @Test func holdIsMeasuredFromTheOnset() {
        GestureMarble.expect(
            "p--P-------R",
            passed: "   P       R",
            gestures: "     H     L", gestures(hold: 5))
    }

    @Test func holdIsNeverBeforeThePressWasDecided() {
        GestureMarble.expect(
            "p-----P--R",
            passed: "      P  R",
            gestures: "      H  L", gestures(hold: 3))
    }

    @Test func releaseExactlyAtTheHoldDeadlineCancelsIt() {
        GestureMarble.expect("P----R", passed: "P----R", gestures: "", gestures(hold: 5))
        GestureMarble.expect("P-----R", passed: "P-----R", gestures: "     HL", gestures(hold: 5))
    }

    @Test func repeatHasItsOwnInitialDelayThenACadenceUntilTheRelease() {
        // gpiozero issue 1095: hold at 4, first repeat at 6 (its own delay), then every 2; the repeat
        // due at 12 is cancelled by the release decided at 12.
        GestureMarble.expect(
            "P-----------R",
            passed: "P-----------R",
            gestures: "    H T T T L", gestures(hold: 4, repeatDelay: 6, repeatInterval: 2))
    }

    @Test func repeatWithoutHoldIsMeasuredFromTheOnset() {
        GestureMarble.expect(
            "p-P---------R",
            passed: "  P         R",
            gestures: "    T  T  T", gestures(repeatDelay: 4, repeatInterval: 3))
    }

    @Test func repeatWithoutIntervalRepeatsOnce() {
        GestureMarble.expect("P---------R", passed: "P---------R", gestures: "   T", gestures(repeatDelay: 3))
    }

    @Test func throughADebouncer() {
        // defer(2 ticks): the press bounces from 3 and is decided at 8 with its onset at 3, so the hold
        // (7) is due at 10; the release is decided at 16.
        GestureMarble.expect(
            raw: "---__-________-----", debounce: DebounceConfiguration(both: .deferTicks(2)),
            passed: "        P       R",
            gestures: "          H     L", gestures(hold: 7))
    }
}

/// Click counting, throttle, drawn as timelines.
@Suite struct GestureClickMarbleTests {
    @Test func immediateReportsEveryClickAtItsRelease() {
        // The press at 5 comes exactly W = 3 after the release at 2: it continues the run.
        // The press at 13 comes 6 after the release at 7: a new run.
        GestureMarble.expect(
            "P-R--P-R-----P-R",
            passed: "P-R--P-R-----P-R",
            gestures: "  1    2       1", gestures(clickWindow: 3))
    }

    @Test func exclusiveReportsOneClickWithTheFinalCountWhenTheWindowEnds() {
        // The press at 5 is decided exactly at the window's end (2 + 3): it comes first and continues
        // the run, so there is no click 1 at 5; click 2 at 7 + 3.
        GestureMarble.expect(
            "P-R--P-R---------P-R",
            passed: "P-R--P-R---------P-R",
            gestures: "          2           1", gestures(clickWindow: 3, policy: .exclusive))
    }

    @Test func exclusivePressJustAfterTheWindowStartsANewRun() {
        GestureMarble.expect(
            "P-R---P-R",
            passed: "P-R---P-R",
            gestures: "     1     1", gestures(clickWindow: 3, policy: .exclusive))
    }

    @Test func immediateAndExclusiveOnTheSameDoubleClick() {
        GestureMarble.expect("P-R-P-R", passed: "P-R-P-R", gestures: "  1   2", gestures(clickWindow: 3))
        GestureMarble.expect(
            "P-R-P-R", passed: "P-R-P-R", gestures: "         2", gestures(clickWindow: 3, policy: .exclusive))
    }

    @Test func holdIsNoClickAndEndsTheRun() {
        GestureMarble.expect(
            "P-----R--P-R",
            passed: "P-----R--P-R",
            gestures: "    H L    1", gestures(hold: 4, clickWindow: 3))
        GestureMarble.expect(
            "P-----R--P-R",
            passed: "P-----R--P-R",
            gestures: "    H L       1", gestures(hold: 4, clickWindow: 3, policy: .exclusive))
    }

    @Test func repeatAloneAlsoMakesAPressLong() {
        GestureMarble.expect(
            "P-----R", passed: "P-----R", gestures: "    T", gestures(repeatDelay: 4, clickWindow: 3))
    }

    @Test func maximumCountEndsTheRun() {
        // Exclusive: the second click reaches the maximum and is reported at its release, with no wait.
        GestureMarble.expect(
            "P-R-P-R-P-R",
            passed: "P-R-P-R-P-R",
            gestures: "      2      1", gestures(clickWindow: 3, policy: .exclusive, maxCount: 2))
        GestureMarble.expect(
            "P-R-P-R-P-R",
            passed: "P-R-P-R-P-R",
            gestures: "  1   2   1", gestures(clickWindow: 3, maxCount: 2))
    }

    @Test func throttleSwallowsAPressAndItsRelease() {
        GestureMarble.expect(
            "P-R-P-R---P-R",
            passed: "P-R-------P-R",
            gestures: "", gestures(throttle: 5))
    }

    @Test func throttleLetsAPressExactlyOneIntervalLaterThrough() {
        GestureMarble.expect("P-R--P-R", passed: "P-R--P-R", gestures: "", gestures(throttle: 5))
    }

    @Test func aSwallowedPressNeitherCountsNorBreaksTheRun() {
        // The press at 4 is throttled; the one at 8 continues the run of the click at 2 (8 - 2 <= 10).
        GestureMarble.expect(
            "P-R-P-R-P-R",
            passed: "P-R-----P-R",
            gestures: "  1       2", gestures(clickWindow: 10, throttle: 5))
        // Under `.exclusive`, the run's window ends on time while a swallowed press is down.
        GestureMarble.expect(
            "P-R-P---R",
            passed: "P-R",
            gestures: "      1", gestures(clickWindow: 4, policy: .exclusive, throttle: 10))
    }
}

// MARK: - Tables

/// Edge cases checked event by event, with onsets and several events at one instant.
@Suite struct GestureTableTests {
    @Test func defaultConfigurationChangesNothingAndHasNoDeadlines() {
        var recognizer = GestureRecognizer()
        let inputs = [press(10, onset: 4), release(30, onset: 25), press(31), release(1000, onset: 990)]
        var output: [ButtonEvent] = []
        for input in inputs {
            output += recognizer.receive(input)
            #expect(recognizer.nextDeadlineNs == nil)
            output += recognizer.advance(toNs: input.timeNs)
        }
        // Each release comes with how long its press was held: 25 - 4 and 990 - 31.
        #expect(output == [press(10, onset: 4), release(30, onset: 25, held: 21), press(31), release(1000, onset: 990, held: 959)])
        #expect(GestureConfiguration().isPassthrough)
    }

    @Test func releaseThenItsClickInOneOutput() {
        var recognizer = GestureRecognizer(configuration: GestureConfiguration(clickWindowNs: 50))
        #expect(Array(recognizer.receive(press(10, onset: 7))) == [press(10, onset: 7)])
        #expect(
            Array(recognizer.receive(release(20, onset: 18)))
                == [release(20, onset: 18, held: 11), gesture(.click, 20, onset: 7, count: 1)])
    }

    @Test func holdTableAroundTheDeadline() {
        // (press onset, press decision, release decision, hold time or nil), hold = 100.
        let rows: [(Int64, Int64, Int64, Int64?)] = [
            (0, 10, 99, nil), (0, 10, 100, nil), (0, 10, 101, 100),
            (0, 150, 200, 150), (0, 150, 150, nil), (50, 60, 151, 150), (50, 60, 150, nil),
        ]
        let configuration = GestureConfiguration(holdNs: 100)
        for (onset, decided, released, holdNs) in rows {
            let inputs = [press(decided, onset: onset), release(released)]
            let output = GestureMarble.runAtDeadlines(inputs, configuration, endNs: released + 1000)
            let holds = holdNs.map { [gesture(.hold, $0, onset: onset)] } ?? []
            #expect(output.filter { $0.kind == .hold } == holds, "row \(onset) \(decided) \(released)")
        }
        var recognizer = GestureRecognizer(configuration: configuration)
        _ = recognizer.receive(press(60, onset: 50))
        #expect(recognizer.nextDeadlineNs == 150)
        _ = recognizer.receive(release(70))
        #expect(recognizer.nextDeadlineNs == nil)
    }

    @Test func holdComesBeforeARepeatDueAtTheSameInstant() {
        // The first repeat would be due at 3 but never precedes the hold: both at 6, the hold first.
        var recognizer = GestureRecognizer(
            configuration: GestureConfiguration(holdNs: 6, repeatDelayNs: 3, repeatIntervalNs: 2))
        _ = recognizer.receive(press(0))
        #expect(recognizer.nextDeadlineNs == 6)
        #expect(Array(recognizer.advance(toNs: 6)) == [gesture(.hold, 6, onset: 0), gesture(.repeat, 6, onset: 0)])
        #expect(recognizer.nextDeadlineNs == 8)
        #expect(Array(recognizer.advance(toNs: 8)) == [gesture(.repeat, 8, onset: 0)])
    }

    @Test func exclusiveClicksBeforeAPressThatTurnsIntoAHold() {
        // A click, then a press within the window that is held: click 1 is reported when the hold is,
        // just before it, and the held press never clicks.
        var recognizer = GestureRecognizer(
            configuration: GestureConfiguration(holdNs: 5, clickWindowNs: 10, clickPolicy: .exclusive))
        var output = Array(recognizer.receive(press(0)))
        output += recognizer.receive(release(2))
        #expect(recognizer.nextDeadlineNs == 12)
        output += recognizer.receive(press(4, onset: 3))
        #expect(recognizer.nextDeadlineNs == 8)
        output += recognizer.advance(toNs: 8)
        output += recognizer.receive(release(20))
        #expect(recognizer.nextDeadlineNs == nil)
        output += recognizer.advance(toNs: 100)
        output += recognizer.finish()
        #expect(
            output == [
                press(0), release(2, held: 2), press(4, onset: 3), gesture(.click, 8, onset: 0, count: 1),
                gesture(.hold, 8, onset: 3), release(20, held: 17), longRelease(20, held: 17),
            ])
    }

    @Test func clickWindowBoundaryTable() {
        // (gap from the release to the next press, count of the second click), W = 30.
        for (gapNs, count) in [(29 as Int64, 2), (30, 2), (31, 1)] {
            for policy in GestureConfiguration.ClickPolicy.allCases {
                let configuration = GestureConfiguration(clickWindowNs: 30, clickPolicy: policy)
                let inputs = [press(0), release(10), press(10 + gapNs), release(20 + gapNs)]
                let output = GestureMarble.runAtDeadlines(inputs, configuration, endNs: 1000)
                let clicks = output.filter { $0.kind == .click }.map(\.count)
                #expect(clicks == (policy == .immediate ? (count == 2 ? [1, 2] : [1, 1]) : (count == 2 ? [2] : [1, 1])), "gap \(gapNs) \(policy)")
            }
        }
    }

    @Test func lateDriverCoalescesRepeatsAndFillsTheOutput() {
        // The fullest output: the run's click, the hold, one (coalesced) repeat, the release and its long release.
        var recognizer = GestureRecognizer(
            configuration: GestureConfiguration(
                holdNs: 5, repeatDelayNs: 5, repeatIntervalNs: 1, clickWindowNs: 100, clickPolicy: .exclusive))
        _ = recognizer.receive(press(0))
        #expect(recognizer.receive(release(1)).elementsEqual([release(1, held: 1)]))
        _ = recognizer.receive(press(2))
        let output = recognizer.receive(release(100))
        #expect(output.count == GestureOutput.capacity)
        #expect(
            Array(output) == [
                gesture(.click, 7, onset: 0, count: 1), gesture(.hold, 7, onset: 2), gesture(.repeat, 99, onset: 2),
                release(100, held: 98), longRelease(100, held: 98),
            ])
        #expect(recognizer.coalescedRepeats == 92)
    }

    @Test func immediateClickRunWindowEndIsNoDeadline() {
        var recognizer = GestureRecognizer(configuration: GestureConfiguration(clickWindowNs: 30))
        _ = recognizer.receive(press(0))
        _ = recognizer.receive(release(10))
        #expect(recognizer.nextDeadlineNs == nil)
        var exclusive = GestureRecognizer(configuration: GestureConfiguration(clickWindowNs: 30, clickPolicy: .exclusive))
        _ = exclusive.receive(press(0))
        _ = exclusive.receive(release(10))
        #expect(exclusive.nextDeadlineNs == 40)
        #expect(exclusive.advance(toNs: 39).isEmpty)
        #expect(Array(exclusive.advance(toNs: 40)) == [gesture(.click, 40, onset: 0, count: 1)])
        #expect(exclusive.nextDeadlineNs == nil)
    }

    @Test func finishReportsTheClickAnExclusiveRunWaitsFor() {
        var recognizer = GestureRecognizer(configuration: GestureConfiguration(clickWindowNs: 30, clickPolicy: .exclusive))
        _ = recognizer.receive(press(0))
        _ = recognizer.receive(release(10))
        _ = recognizer.receive(press(20))
        _ = recognizer.receive(release(25))
        #expect(Array(recognizer.finish()) == [gesture(.click, 55, onset: 20, count: 2)])
        #expect(recognizer.finish().isEmpty)
    }

    @Test func inputsNoDebouncerProducesAreIgnoredOrClamped() {
        var recognizer = GestureRecognizer(configuration: GestureConfiguration(holdNs: 10, clickWindowNs: 30))
        #expect(recognizer.receive(release(5)).isEmpty)  // a release while released
        #expect(recognizer.receive(gesture(.hold, 6, onset: 0)).isEmpty)  // gesture kinds are outputs only
        _ = recognizer.receive(press(20))
        #expect(recognizer.receive(press(21)).isEmpty)  // a press while pressed
        #expect(Array(recognizer.advance(toNs: 25)).isEmpty)
        // Stamped before a time already reached: applied at that time.
        #expect(
            Array(recognizer.receive(release(22, onset: 21)))
                == [release(25, onset: 21, held: 1), gesture(.click, 25, onset: 20, count: 1)])
        #expect(recognizer.advance(toNs: 24).isEmpty)
        #expect(recognizer.receive(ButtonEvent(kind: .press, timeNs: 26, onsetNs: 99)).first?.onsetNs == 26)
    }
}

/// Groups of buttons that lock each other out.
@Suite struct GroupLockoutTests {
    @Test func membersLockEachOtherOutButNotThemselves() {
        var group = GroupLockout(windowNs: 5)
        var a = GestureRecognizer(groupMember: 0)
        var b = GestureRecognizer(groupMember: 1)
        var output: [ButtonEvent] = []
        output += a.receive(press(0), group: &group)
        output += b.receive(press(3), group: &group)  // locked out until 5: swallowed
        output += b.receive(release(4), group: &group)  // its release too
        output += a.receive(release(4), group: &group)
        output += b.receive(press(5), group: &group)  // exactly at the window's end: admitted
        output += a.receive(press(7), group: &group)  // b's window, 5 to 10: swallowed
        output += a.receive(release(8), group: &group)
        output += b.receive(release(9), group: &group)
        output += b.receive(press(11), group: &group)  // b's own presses are never locked out by b
        output += b.receive(release(12), group: &group)
        output += b.receive(press(13), group: &group)
        output += b.receive(release(14), group: &group)
        #expect(
            output == [
                press(0), release(4, held: 4), press(5), release(9, held: 4), press(11), release(12, held: 1), press(13), release(14, held: 1),
            ])
        #expect(group.lockedOutPresses == 2)
        #expect(a.swallowedPresses == 1 && b.swallowedPresses == 1)
        #expect(group.holder == 1 && group.lockedUntilNs == 18)
    }

    @Test func aThrottledPressDoesNotClaimTheGroup() {
        var group = GroupLockout(windowNs: 5)
        var a = GestureRecognizer(configuration: GestureConfiguration(throttleNs: 10), groupMember: 0)
        var b = GestureRecognizer(groupMember: 1)
        _ = a.receive(press(0), group: &group)
        _ = a.receive(release(1), group: &group)
        #expect(a.receive(press(2), group: &group).isEmpty)  // throttled: had it claimed, b would wait until 7
        _ = a.receive(release(3), group: &group)
        #expect(Array(b.receive(press(6), group: &group)) == [press(6)])
    }

    @Test func lockoutValue() {
        var group = GroupLockout(windowNs: 100)
        #expect(group.lockedUntilNs == nil && group.admits(member: 3, atNs: .min))
        let first = group.claim(member: 3, atNs: 1000)
        #expect(first)
        #expect(group.lockedUntilNs == 1100)
        #expect(group.admits(member: 3, atNs: 1001) && !group.admits(member: 4, atNs: 1099) && group.admits(member: 4, atNs: 1100))
        let sameInstant = group.claim(member: 4, atNs: 1000)
        #expect(!sameInstant)  // the same instant: the first delivered wins
        #expect(group.lockedOutPresses == 1)
        var saturating = GroupLockout(windowNs: .max)
        let claimed = saturating.claim(member: 0, atNs: 10)
        #expect(claimed && saturating.lockedUntilNs == .max)
        var none = GroupLockout(windowNs: -5)
        let (zero, one) = (none.claim(member: 0, atNs: 10), none.claim(member: 1, atNs: 10))
        #expect(zero && one)
    }
}

// MARK: - Properties

/// Properties over random press/release sequences (including presses while pressed and releases while
/// released), with random features switched on and delays chosen to hit the boundaries exactly.
@Suite struct GesturePropertyTests {
    struct Scenario {
        var configuration: GestureConfiguration
        var inputs: [ButtonEvent]
        var endNs: Int64
    }

    /// Times in nanoseconds, but small (a few ticks of 1 ns), so that ties are frequent.
    static func scenario(seed: UInt64, length: Int, features: Int) -> Scenario {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Int64>) -> Int64 {
            range.lowerBound + Int64(random.next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        var configuration = GestureConfiguration()
        if features & 1 != 0 { configuration.holdNs = uniform(0...12) }
        if features & 2 != 0 {
            configuration.repeatDelayNs = uniform(0...12)
            configuration.repeatIntervalNs = uniform(-1...5)
        }
        if features & 4 != 0 { configuration.clickWindowNs = uniform(0...10) }
        if features & 8 != 0 { configuration.clickPolicy = .exclusive }
        if features & 16 != 0 { configuration.maxClickCount = Int(uniform(0...4)) }
        if features & 32 != 0 { configuration.throttleNs = uniform(0...8) }
        let special = [
            configuration.holdNs, configuration.repeatDelayNs, configuration.clickWindowNs, configuration.throttleNs,
        ].compactMap { $0 }

        var inputs: [ButtonEvent] = []
        var timeNs: Int64 = 0
        var pressed = false
        for _ in 0..<length {
            // Mostly alternating, as from a debouncer; sometimes the same kind again.
            let kind: ButtonEvent.Kind = (random.next() % 8 == 0) == pressed ? .press : .release
            var gapNs = random.next() % 3 == 0 && !special.isEmpty ? special[Int(random.next() % UInt64(special.count))] : uniform(0...20)
            gapNs += uniform(-1...1)
            // Press onsets strictly increase (the tests tell presses apart by their onsets).
            let previousNs = timeNs
            timeNs += max(kind == .press ? 1 : 0, gapNs)
            let onsetNs = max(kind == .press ? previousNs + 1 : previousNs, timeNs - uniform(0...4))
            inputs.append(ButtonEvent(kind: kind, timeNs: timeNs, onsetNs: onsetNs))
            pressed = kind == .press
        }
        return Scenario(configuration: configuration, inputs: inputs, endNs: timeNs + 40)
    }

    /// One reported press as the output shows it, with what happened during it.
    struct ReportedPress {
        var timeNs: Int64
        var onsetNs: Int64
        var releaseNs: Int64?
        var holds: [Int64] = []
        var repeats: [Int64] = []
        var longReleases = 0
        var firstLongNs: Int64? { [holds.first, repeats.first].compactMap { $0 }.min() }
    }

    /// The press and release events that should pass: the inputs read as a debouncer's (a press while
    /// pressed and a release while released ignored), with the throttle applied.
    static func expectedPassthrough(_ inputs: [ButtonEvent], _ configuration: GestureConfiguration) -> [ButtonEvent] {
        var passed: [ButtonEvent] = []
        var down = false, swallowing = false
        var lastPressNs: Int64?
        for event in inputs {
            switch event.kind {
            case .press where !down && !swallowing:
                if let throttleNs = configuration.throttleNs, throttleNs > 0, let lastPressNs, event.timeNs < lastPressNs + throttleNs {
                    swallowing = true
                } else {
                    passed.append(event)
                    down = true
                    lastPressNs = event.timeNs
                }
            case .release where down:
                var release = event
                release.heldNs = event.onsetNs - (passed.last?.onsetNs ?? event.onsetNs)
                passed.append(release)
                down = false
            case .release where swallowing:
                swallowing = false
            default:
                break
            }
        }
        return passed
    }

    /// The clicks that should be reported, read from the reported presses (the click definitions
    /// applied to a list, rather than a state machine).
    static func expectedClicks(_ presses: [ReportedPress], _ configuration: GestureConfiguration, endNs: Int64) -> [ButtonEvent] {
        guard let windowNs = configuration.clickWindowNs else { return [] }
        let exclusive = configuration.clickPolicy == .exclusive
        let maximum = configuration.maxClickCount.flatMap { $0 >= 1 ? $0 : nil } ?? .max
        var clicks: [ButtonEvent] = []
        var run: (count: Int, releaseNs: Int64, onsetNs: Int64)?
        var unresolved = false
        for press in presses {
            if let open = run, press.timeNs > open.releaseNs + windowNs {
                if exclusive { clicks.append(gesture(.click, open.releaseNs + windowNs, onset: open.onsetNs, count: open.count)) }
                run = nil
            }
            if let longNs = press.firstLongNs {
                if exclusive, let open = run { clicks.append(gesture(.click, longNs, onset: open.onsetNs, count: open.count)) }
                run = nil
                continue
            }
            guard let releaseNs = press.releaseNs else {
                unresolved = true
                break
            }
            let count = (run?.count ?? 0) + 1
            if !exclusive || count >= maximum { clicks.append(gesture(.click, releaseNs, onset: press.onsetNs, count: count)) }
            run = count >= maximum ? nil : (count, releaseNs, press.onsetNs)
        }
        if exclusive, !unresolved, let open = run, open.releaseNs + windowNs <= endNs {
            clicks.append(gesture(.click, open.releaseNs + windowNs, onset: open.onsetNs, count: open.count))
        }
        return clicks
    }

    @Test func randomSequencesKeepEveryInvariant() async {
        await propertyCheck(count: 1000, input: Gen.uint64(), Gen.int(in: 0...40), Gen.int(in: 0...63)) { seed, length, features in
            let scenario = Self.scenario(seed: seed, length: length, features: features)
            let configuration = scenario.configuration
            let output = GestureMarble.runAtDeadlines(scenario.inputs, configuration, endNs: scenario.endNs)

            // A driver that advances at every instant sees exactly the same.
            #expect(output == GestureMarble.runEveryTick(scenario.inputs, configuration, endNs: scenario.endNs, tickNs: 1))

            // Events in time order; every release follows a press; the passthrough is the inputs, throttled.
            var presses: [ReportedPress] = []
            var lastTimeNs = Int64.min
            for event in output {
                #expect(event.timeNs >= lastTimeNs && event.onsetNs <= event.timeNs)
                lastTimeNs = event.timeNs
                let current = presses.indices.last.flatMap { presses[$0].releaseNs == nil ? $0 : nil }
                switch event.kind {
                case .press:
                    #expect(current == nil, "a press while pressed")
                    presses.append(ReportedPress(timeNs: event.timeNs, onsetNs: event.onsetNs))
                case .release:
                    #expect(current != nil, "a release with no press")
                    if let current {
                        presses[current].releaseNs = event.timeNs
                        #expect(event.heldNs == event.onsetNs - presses[current].onsetNs, "held from the press's onset to the release's")
                    }
                case .longRelease:
                    // Right after the release of a press that had its hold, with the same times.
                    #expect(current == nil, "a long release while pressed")
                    if let last = presses.indices.last {
                        #expect(presses[last].releaseNs == event.timeNs && !presses[last].holds.isEmpty)
                        presses[last].longReleases += 1
                    }
                    #expect(event.heldNs == event.onsetNs - (presses.last?.onsetNs ?? 0))
                case .hold, .repeat:
                    // Only while a press is down, and it belongs to that press.
                    #expect(current != nil, "a hold or repeat while released")
                    if let current {
                        #expect(event.onsetNs == presses[current].onsetNs)
                        if event.kind == .hold { presses[current].holds.append(event.timeNs) } else { presses[current].repeats.append(event.timeNs) }
                    }
                case .click:
                    #expect(event.count >= 1 && event.count <= (configuration.maxClickCount.flatMap { $0 >= 1 ? $0 : nil } ?? .max))
                }
                #expect(event.count == 0 || event.kind == .click)
                #expect(event.heldNs == 0 || event.kind == .release || event.kind == .longRelease)
            }
            let passed = output.filter { $0.kind == .press || $0.kind == .release }
            #expect(passed == Self.expectedPassthrough(scenario.inputs, configuration))

            // Holds and repeats exactly as defined, for every press.
            for press in presses {
                let untilNs = press.releaseNs.map { $0 - 1 } ?? scenario.endNs  // a release at a deadline cancels it
                var expectedHolds: [Int64] = []
                var holdNs: Int64?
                if let hold = configuration.holdNs {
                    holdNs = max(press.timeNs, press.onsetNs + hold)
                    if holdNs! <= untilNs { expectedHolds.append(holdNs!) }
                }
                #expect(press.holds == expectedHolds, "at most one hold per press, at its time")
                #expect(press.longReleases == (press.releaseNs != nil && !press.holds.isEmpty ? 1 : 0), "a long release ends every hold")
                var expectedRepeats: [Int64] = []
                if let delay = configuration.repeatDelayNs {
                    var dueNs = max(holdNs ?? press.timeNs, press.onsetNs + delay)
                    while dueNs <= untilNs {
                        expectedRepeats.append(dueNs)
                        guard let interval = configuration.repeatIntervalNs, interval > 0 else { break }
                        dueNs += interval
                    }
                }
                #expect(press.repeats == expectedRepeats, "repeats between the hold (or press) and the release")
                if let first = press.repeats.first, let hold = press.holds.first { #expect(hold <= first) }
            }

            // Clicks as defined; their counts go up by one within a run; under `.exclusive` no press has
            // both a click and a hold.
            let clicks = output.filter { $0.kind == .click }
            #expect(clicks == Self.expectedClicks(presses, configuration, endNs: scenario.endNs))
            if configuration.clickPolicy == .immediate {
                for (previous, click) in zip([nil] + clicks.map(Optional.some), clicks) {
                    #expect(click.count == 1 || click.count == (previous?.count ?? 0) + 1)
                }
            } else {
                let longOnsets = Set(presses.filter { $0.firstLongNs != nil }.map(\.onsetNs))
                #expect(clicks.allSatisfy { !longOnsets.contains($0.onsetNs) })
            }
            if configuration.isPassthrough { #expect(output == passed) }
        }
    }
}

/// How long a press was held (`ButtonEvent.heldNs`), on timelines: from the press's onset to the
/// release's onset, whatever the debouncer's decision times.
@Suite struct HoldDurationMarbleTests {
    @Test func heldIsFromOnsetToOnsetNotFromDecisionToDecision() {
        // Press: onset 1, decided 4. Release: onset 9, decided 13. Held 8 ticks, not 9.
        #expect(GestureMarble.heldTicks(GestureMarble.events("-p--P----r---R"), GestureConfiguration()) == ["R8"])
    }

    @Test func throughADebouncerTheBounceIsNotCounted() {
        // defer(2): the press bounces from 3 (onset 3, decided 8), the release from 14 (onset 14,
        // decided 19, after the bounce at 15-16): held 11 ticks.
        let events = GestureMarble.events(raw: "---__-________--_---------", configuration: DebounceConfiguration(both: .deferTicks(2)))
        #expect(GestureMarble.heldTicks(events, GestureConfiguration()) == ["R11"])
    }

    @Test func aHeldPressEndsWithAReleaseAndALongReleaseOfTheSameDuration() {
        GestureMarble.expect("p-P------r-R", passed: "  P        R", gestures: "     H     L", gestures(hold: 5))
        #expect(GestureMarble.heldTicks(GestureMarble.events("p-P------r-R"), gestures(hold: 5)) == ["R9", "L9"])
    }

    @Test func aShortPressHasNoLongReleaseAndClicksKeepTheirDurations() {
        #expect(GestureMarble.heldTicks(GestureMarble.events("P-R--P---R"), gestures(hold: 5, clickWindow: 3)) == ["R2", "R4"])
    }

    @Test func aSwallowedPressReportsNoDurationAndTheNextOneItsOwn() {
        // Throttle 10: the press at 4 is swallowed with its release; the press at 12 is held 3 ticks.
        #expect(GestureMarble.heldTicks(GestureMarble.events("P-R-P-R-----P--R"), gestures(throttle: 10)) == ["R2", "R3"])
    }
}
