import DebounceCore
import Testing

/// What the debouncer counts about a line's health (`DebounceStatistics`): bounces absorbed into a
/// press or release, glitches (bursts of one or two edges that reported nothing) and noise bursts
/// (three or more), on marble timelines (`-` high, `_` low, 1 ms per tick; active low).
@Suite struct HealthCountTests {
    /// Runs `raw` through a debouncer tick by tick (as `Marble` does), then asks for the statistics
    /// as they stand `quietTicks` after the last tick, without `finish()`: what a live run reports.
    static func statistics(_ raw: String, _ configuration: DebounceConfiguration, quietTicks: Int64 = 100) -> DebounceStatistics {
        let tickNs: Int64 = 1_000_000
        let levels = raw.map { $0 == "_" ? Level.low : Level.high }
        var debouncer = Debouncer(configuration: configuration, initialLevel: levels[0], atNs: 0)
        for tick in levels.indices {
            let timeNs = Int64(tick) * tickNs
            if tick > 0, levels[tick] != levels[tick - 1] { _ = debouncer.receive(Edge(level: levels[tick], timeNs: timeNs)) }
            _ = debouncer.advance(toNs: timeNs)
        }
        return debouncer.statistics(asOfNs: Int64(levels.count - 1 + Int(quietTicks)) * tickNs)
    }

    let deferConfig = DebounceConfiguration(both: .deferTicks(3))
    let eagerConfig = DebounceConfiguration(both: .eagerTicks(4))

    @Test func aCleanPressAndReleaseAbsorbNothing() {
        let statistics = Self.statistics("---______-------", deferConfig)
        #expect(statistics.edges == 2)
        #expect(statistics.presses == 1 && statistics.releases == 1)
        #expect(statistics.bouncesAbsorbed == 0)
        #expect(statistics.glitchesRejected == 0 && statistics.noiseBursts == 0)
    }

    @Test func bounceOfAPressAndOfItsReleaseIsAbsorbed() {
        // Press: 5 edges make 1 press (4 absorbed); release: 3 edges make 1 release (2 absorbed).
        let statistics = Self.statistics("--_-_-______-_-------", deferConfig)
        #expect(statistics.edges == 8)
        #expect(statistics.presses == 1 && statistics.releases == 1)
        #expect(statistics.bouncesAbsorbed == 6)
        #expect(statistics.glitchesRejected == 0 && statistics.noiseBursts == 0)
    }

    @Test func eagerBounceInTheLockoutIsAbsorbed() {
        let statistics = Self.statistics("---_-_______-_-------", eagerConfig)
        #expect(statistics.presses == 1 && statistics.releases == 1)
        #expect(statistics.edges == 6)
        #expect(statistics.bouncesAbsorbed == 4)
        #expect(statistics.glitchesRejected == 0 && statistics.noiseBursts == 0)
    }

    @Test func aPulseShorterThanTheWindowIsOneGlitch() {
        let statistics = Self.statistics("----__--------__-------", deferConfig)
        #expect(statistics.edges == 4)
        #expect(statistics.presses == 0)
        #expect(statistics.glitchesRejected == 2)
        #expect(statistics.noiseBursts == 0 && statistics.bouncesAbsorbed == 0)
    }

    @Test func aSpikeShorterThanTheGlitchWindowIsAGlitch() {
        let statistics = Self.statistics("----_------", DebounceConfiguration(both: .eagerTicks(4, glitch: 2)))
        #expect(statistics.presses == 0)
        #expect(statistics.glitchesRejected == 1)
    }

    @Test func aBurstOfEdgesThatMakesNoPressIsNoise() {
        // 6 edges, each gap shorter than the window, back to released: one noise burst.
        let statistics = Self.statistics("---_-_-__-------", deferConfig)
        #expect(statistics.edges == 6)
        #expect(statistics.presses == 0)
        #expect(statistics.noiseBursts == 1)
        #expect(statistics.glitchesRejected == 0 && statistics.bouncesAbsorbed == 0)
    }

    @Test func aGlitchOnAQuietLineCountsOnceItsWindowIsOverWithoutAnotherEdge() {
        // The burst settles only at the next edge or advance: the statistics as of a later time count it.
        let statistics = Self.statistics("---_-", deferConfig, quietTicks: 0)
        #expect(statistics.glitchesRejected == 0)
        #expect(Self.statistics("---_-", deferConfig, quietTicks: 3).glitchesRejected == 1)
    }

    @Test func statisticsAsOfATimeChangeNothing() {
        var debouncer = Debouncer(configuration: deferConfig, initialLevel: .high)
        _ = debouncer.receive(Edge(level: .low, timeNs: 1_000_000))
        _ = debouncer.receive(Edge(level: .high, timeNs: 2_000_000))
        #expect(debouncer.statistics(asOfNs: 50_000_000).glitchesRejected == 1)
        #expect(debouncer.statistics.glitchesRejected == 0)
        #expect(debouncer.nextDeadlineNs == 5_000_000)
    }

    @Test func everyEdgeCountsOnceAcrossPressesGlitchesAndNoise() {
        // A press with bounce, a glitch, noise, a clean release: every edge is in the press's
        // events, its bounce, the glitch or the noise.
        let raw = "--_-_______-_______-_-_-_______--------"
        let statistics = Self.statistics(raw, deferConfig)
        #expect(statistics.presses == 1 && statistics.releases == 1)
        #expect(statistics.glitchesRejected == 1)
        #expect(statistics.noiseBursts == 1)
        #expect(statistics.edges == statistics.presses + statistics.releases + statistics.bouncesAbsorbed + 2 + 6)
    }
}
