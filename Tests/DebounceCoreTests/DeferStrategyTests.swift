import DebounceCore
import Testing

/// `defer(W)`: report only after the raw level held the new value for W with no edge.
@Suite struct DeferStrategyTests {
    let config = DebounceConfiguration(both: .deferTicks(3))

    @Test func bouncyPressAndCleanReleaseKeepTheFirstEdgeAsOnset() {
        Marble.expect(
            "------_-_-___________----",
            "      p      P       r  R", config)
    }

    @Test func edgeExactlyAtTheDeadlineCancelsIt() {
        // Low at 3 would be decided at 6, but the edge at 6 comes first; the last low (7) decides at 10.
        Marble.expect(
            "---___-_______",
            "   p      P", config)
    }

    @Test func edgeOneTickAfterTheDeadlineDoesNot() {
        // Low at 3 held to 7: decided at 6, and the edge at 7 starts the release.
        Marble.expect(
            "---____----",
            "   p  Pr  R", config)
    }

    @Test func spikeShorterThanTheWindowIsIgnored() {
        Marble.expect("-----_-------", "", config)
        Marble.expect("-----__------", "", config)
    }

    @Test func pulseMustOutlastTheWindowToBeReported() {
        // Low at 5 held until 8 (= 5 + W): the edge at 8 cancels; held until 9: reported at 8.
        Marble.expect("-----___-----", "", config)
        Marble.expect(
            "-----____--------",
            "     p  Pr  R", config)
    }

    @Test func separateWindowsPerDirection() {
        let config = DebounceConfiguration(press: .deferTicks(2), release: .deferTicks(5))
        Marble.expect(
            "---_-____-_-------------",
            "   p   P r      R", config)
    }

    @Test func zeroWindowReportsAtTheEdgeOnceTheInstantIsOver() {
        Marble.expect("---___---", "   P  R", DebounceConfiguration(both: .deferTicks(0)))
    }

    @Test func activeHighInvertsTheMeaningOfLevels() {
        let config = DebounceConfiguration(both: .deferTicks(3), activeLevel: .activeHigh)
        Marble.expect(
            "___-_-------____",
            "   p    P   r  R", config)
    }
}
