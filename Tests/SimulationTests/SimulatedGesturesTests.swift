import DebounceCore
import Pipeline
import Simulation
import Testing

/// The simulated person makes the gestures a button's configuration recognizes, and no other, through
/// the real debouncer and gesture recognizer in virtual time.
@Suite struct SimulatedGesturesTests {
    static let ms: Int64 = 1_000_000

    /// What a button pressed `presses` times reported: the kinds of its events, and its clicks' counts.
    static func played(
        _ gestures: GestureConfiguration, debounce: DebounceConfiguration = DebounceConfiguration(press: .defer(windowNs: 10 * ms), release: .defer(windowNs: 10 * ms)),
        clickCounts: [Int] = [], presses: Int, seed: UInt64
    ) throws -> (kinds: Set<ButtonEvent.Kind>, clickCounts: Set<Int>) {
        let simulated = try #require(SimulatedGestures(gestures, debounce: debounce, clickCounts: clickCounts))
        let button = BouncyButton(seed: seed, activeLevel: debounce.activeLevel, presses: presses, gestures: simulated)
        let run = try VirtualRun.play(SimulatedLines(buttons: [button]), plans: [LinePlan(debounce: debounce, gestures: gestures)])
        #expect(run.events.filter { $0.event.kind == .press }.count == presses, "every press is one physical press")
        let events = run.events.map(\.event)
        return (Set(events.map(\.kind)), Set(events.filter { $0.kind == .click }.map(\.count)))
    }

    @Test(arguments: [GestureConfiguration.ClickPolicy.immediate, .exclusive], [1, 2, 3, 4, 5] as [UInt64])
    func holdsDoubleAndTripleClicksAndSingleClicks(policy: GestureConfiguration.ClickPolicy, seed: UInt64) throws {
        let played = try Self.played(GestureConfiguration(holdNs: 1_000 * Self.ms, clickWindowNs: 400 * Self.ms, clickPolicy: policy), presses: 36, seed: seed)
        #expect(played.kinds == [.press, .release, .click, .hold, .longRelease])
        #expect(played.clickCounts == [1, 2, 3])
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func repeatsAndClicksUpToTheMaximum(seed: UInt64) throws {
        let played = try Self.played(
            GestureConfiguration(repeatDelayNs: 500 * Self.ms, repeatIntervalNs: 150 * Self.ms, clickWindowNs: 300 * Self.ms, clickPolicy: .exclusive, maxClickCount: 2),
            presses: 30, seed: seed)
        #expect(played.kinds == [.press, .release, .click, .repeat])
        #expect(played.clickCounts == [1, 2])
    }

    /// Clicks go as far as the actions' counts; an eager press and a slow release still click in time.
    @Test func clicksGoUpToTheCountsTheActionsName() throws {
        let debounce = DebounceConfiguration(press: .eager(lockoutNs: 50 * Self.ms, glitchNs: 100_000), release: .defer(windowNs: 20 * Self.ms))
        let played = try Self.played(GestureConfiguration(clickWindowNs: 400 * Self.ms), debounce: debounce, clickCounts: [1, 5], presses: 60, seed: 7)
        #expect(played.kinds == [.press, .release, .click])
        #expect(played.clickCounts == [1, 2, 3, 4, 5])
    }

    /// A hold alone: short presses and holds, the first round in that order.
    @Test func aHoldAloneGivesShortPressesAndHolds() throws {
        let gestures = try #require(SimulatedGestures(GestureConfiguration(holdNs: 3_000 * Self.ms), debounce: DebounceConfiguration()))
        #expect(gestures.gestures == [.clicks(1), .hold])
        let played = try Self.played(GestureConfiguration(holdNs: 3_000 * Self.ms), presses: 4, seed: 1)
        #expect(played.kinds == [.press, .release, .hold, .longRelease])
    }

    @Test func aButtonWithoutGesturesIsPressedAsBefore() {
        #expect(SimulatedGestures(GestureConfiguration(throttleNs: 100 * Self.ms), debounce: DebounceConfiguration()) == nil)
        #expect(Array(BouncyButton(seed: 4, presses: 20, gestures: nil)) == Array(BouncyButton(seed: 4, presses: 20)))
    }

    @Test func theSameSeedGivesTheSameGestures() throws {
        let gestures = try #require(SimulatedGestures(GestureConfiguration(holdNs: Self.ms * 800, clickWindowNs: 250 * Self.ms), debounce: DebounceConfiguration()))
        #expect(Array(BouncyButton(seed: 9, presses: 40, gestures: gestures)) == Array(BouncyButton(seed: 9, presses: 40, gestures: gestures)))
        #expect(Array(BouncyButton(seed: 9, presses: 40, gestures: gestures)) != Array(BouncyButton(seed: 10, presses: 40, gestures: gestures)))
    }
}
