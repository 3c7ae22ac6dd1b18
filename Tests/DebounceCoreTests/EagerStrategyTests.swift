import DebounceCore
import Testing

/// `eager(L)` and `eager(L, glitch: G)`: report at once (after G), then lock out for L.
@Suite struct EagerStrategyTests {
    let config = DebounceConfiguration(both: .eagerTicks(4))

    @Test func reportsAtTheFirstEdgeAndIgnoresBounceDuringTheLockout() {
        Marble.expect(
            "---_-_______-_-------",
            "   P        R", config)
    }

    @Test func pressShorterThanTheLockoutKeepsItsRelease() {
        // gpiozero issue 1039: a lockout must not swallow the release. Released at 5, reported when
        // the lockout ends at 7 (3 + L).
        Marble.expect(
            "---__------",
            "   P r R", config)
    }

    @Test func releaseOnsetIsTheFirstEdgeAwayFromThePressSinceItWasLastSettled() {
        // The bounce at 4 is the first edge that moved away from "pressed" since the debouncer
        // last settled, so by definition it is the release's onset.
        Marble.expect(
            "---_-_---------",
            "   Pr   R", DebounceConfiguration(both: .eagerTicks(5)))
    }

    @Test func edgeExactlyAtTheLockoutEndCountsBeforeTheDecision() {
        // Back to low exactly at 7 (3 + L): applied first, so the raw level equals the reported one.
        Marble.expect(
            "---__--_______",
            "   P", config)
    }

    @Test func changeAtTheLockoutEndIsReportedThenAndStartsANewLockout() {
        // Released at 5 (in the lockout): reported at 7; pressed again at 9 (in the new lockout, which
        // ends at 11): reported at 11.
        Marble.expect(
            "---__----_______",
            "   P r R p P", config)
    }

    @Test func zeroLockoutFollowsEveryEdge() {
        Marble.expect("---_-_---", "   PRPR", DebounceConfiguration(both: .eagerTicks(0)))
    }

    /// A clean press leaves nothing to report at its lockout's end: no wakeup is due then (the decision
    /// that only settles is made by the next edge). A bounce that leaves the line released makes the
    /// lockout's end a deadline again, and a bounce back takes it away.
    @Test func theLockoutEndIsADeadlineOnlyWhenItCanReport() {
        let ms: Int64 = 1_000_000
        var debouncer = Debouncer(configuration: DebounceConfiguration(both: .eagerTicks(4)), initialLevel: .high)
        _ = debouncer.receive(Edge(level: .low, timeNs: 3 * ms))
        #expect(debouncer.nextEventDeadlineNs == 3 * ms)
        #expect(debouncer.advance(toNs: 3 * ms)?.kind == .press)
        #expect(debouncer.nextDeadlineNs == 7 * ms)
        #expect(debouncer.nextEventDeadlineNs == nil)
        _ = debouncer.receive(Edge(level: .high, timeNs: 4 * ms))
        #expect(debouncer.nextEventDeadlineNs == 7 * ms)
        _ = debouncer.receive(Edge(level: .low, timeNs: 5 * ms))
        #expect(debouncer.nextEventDeadlineNs == nil)
        // Never woken at 7: the next edge, at 20, makes the settling decision first and is a release.
        _ = debouncer.receive(Edge(level: .high, timeNs: 20 * ms))
        #expect(debouncer.advance(toNs: 20 * ms) == ButtonEvent(kind: .release, timeNs: 20 * ms, onsetNs: 20 * ms))
    }
}

@Suite struct GlitchFilterTests {
    let config = DebounceConfiguration(both: .eagerTicks(5, glitch: 2))

    @Test func spikeShorterThanGlitchIsNoPress() {
        Marble.expect("-----_------", "", config)
    }

    @Test func spikeExactlyGlitchLongIsNoPress() {
        // Low at 5, back at 7 = 5 + G: the edge at the deadline cancels it.
        Marble.expect("-----__-----", "", config)
    }

    @Test func spikeJustOverGlitchIsAPressAndItsRelease() {
        // Low at 5 held past 7: press at 7; back high at 8, inside the lockout (7...12): release at 12.
        Marble.expect(
            "-----___--------",
            "     p Pr   R", config)
    }

    @Test func bounceShorterThanGlitchDelaysThePressUntilAPulseHolds() {
        // Pulses of 1 tick never hold for G; the low from 9 holds, so the press comes at 11,
        // with the onset at the burst's first edge.
        Marble.expect(
            "-----_-_-___________",
            "     p     P", config)
    }

    @Test func changeAtTheLockoutEndMustStillHoldForGlitch() {
        // Press at 5 (G = 0 for press), lockout to 10; release bounce ends with a high from 9:
        // at 10 it has held 1 tick < G, so the release waits until 9 + G = 11.
        let config = DebounceConfiguration(press: .eagerTicks(5), release: .eagerTicks(5, glitch: 2))
        Marble.expect(
            "-----____--------",
            "     P   r R", config)
    }
}

/// Press and release with different strategies; an eager lockout blocks both directions.
@Suite struct MixedStrategyTests {
    @Test func eagerPressDeferRelease() {
        let config = DebounceConfiguration(press: .eagerTicks(10), release: .deferTicks(3))
        Marble.expect(
            "---_-____________--_-_--------",
            "   P             r       R", config)
    }

    @Test func eagerLockoutBlocksADeferredReleaseUntilItEnds() {
        // Press at 2 locks out until 8. The release (high from 4) has held its 2 ticks by 6, but
        // is reported only when the lockout ends.
        let config = DebounceConfiguration(press: .eagerTicks(6), release: .deferTicks(2))
        Marble.expect(
            "--__--------",
            "  P r   R", config)
    }

    @Test func deferPressEagerRelease() {
        let config = DebounceConfiguration(press: .deferTicks(3), release: .eagerTicks(4))
        Marble.expect(
            "--_-_______-_-_---------",
            "  p    P   R", config)
    }
}
