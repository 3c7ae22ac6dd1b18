import DebounceCore
import Foundation
import Testing
import TraceAnalysis
import TraceFormat

@Suite struct TraceAnalysisTests {
    static let rockerPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/traces/rocker-kcd101.csv").path

    /// The rocker capture, split at 20 ms quiet gaps.
    static func rockerBursts() throws -> [Burst] {
        let reader = try TraceReader.open(rockerPath)
        guard let initial = try reader.next() else { return [] }
        var splitter = BurstSplitter(initialLevel: initial.level, quietGapNs: 20_000_000)
        var bursts: [Burst] = []
        while let edge = try reader.next() {
            if let burst = splitter.add(edge) { bursts.append(burst) }
        }
        if let burst = splitter.finish() { bursts.append(burst) }
        return bursts
    }

    @Test func rockerCaptureHasTheFiguresItsREADMEStates() throws {
        let analysis = TraceAnalysis(bursts: try Self.rockerBursts(), quietGapNs: 20_000_000, activeLevel: .activeLow)
        #expect(analysis.edges == 2_398)
        #expect(analysis.press.transitions == 50 && analysis.release.transitions == 50 && analysis.spikes == 0)
        #expect(analysis.press.edgesPerTransition.maximum == 157)
        #expect(analysis.release.edgesPerTransition.maximum <= 5)
        #expect(analysis.press.burstLengthNs.maximum > 1_000_000 && analysis.press.burstLengthNs.maximum < 1_100_000)
        #expect(analysis.press.shortestPulseNs.map { $0 < 1_000 } == true)
        // The README's table: eager needs more than the longest burst, defer more than 100 us.
        #expect(analysis.eagerAdvice?.smallest == .eager(lockoutNs: analysis.press.burstLengthNs.maximum))
        if case .defer(let windowNs)? = analysis.deferAdvice?.smallest {
            #expect(windowNs > 100_000 && windowNs <= 200_000)
        } else {
            Issue.record("no defer advice: \(analysis.deferProblem ?? "")")
        }
        #expect(analysis.deferAdvice?.eventsWithRecommended == 100)
        #expect(analysis.eagerAdvice?.eventsWithRecommended == 100)
    }

    /// "Smallest" is checked by brute force: one nanosecond less fails on some burst, and windows
    /// sampled above it (up to the gap) all work on every burst.
    @Test func smallestWindowsAreTrulySmallestAndStayWorking() throws {
        let bursts = try Self.rockerBursts()
        let analysis = TraceAnalysis(bursts: bursts, quietGapNs: 20_000_000, activeLevel: .activeLow)
        for (make, advice) in [
            ({ DebounceStrategy.defer(windowNs: $0) }, analysis.deferAdvice),
            ({ DebounceStrategy.eager(lockoutNs: $0) }, analysis.eagerAdvice),
        ] as [((Int64) -> DebounceStrategy, WindowAdvice?)] {
            guard let advice else { Issue.record("missing advice"); continue }
            let smallestNs = advice.smallest.stabilityNs + advice.smallest.lockoutNs
            #expect(!bursts.allSatisfy { WindowSearch.works($0, make(smallestNs - 1), activeLevel: .activeLow) })
            var random = SystemRandomNumberGenerator()
            for _ in 0..<40 {
                let windowNs = Int64.random(in: smallestNs..<20_000_000, using: &random)
                #expect(bursts.allSatisfy { WindowSearch.works($0, make(windowNs), activeLevel: .activeLow) }, "\(make(windowNs))")
            }
        }
    }

    /// The rocker's smallest `defer` window, 178.562 us, is below its 499 us longest gap inside a burst,
    /// and right: that gap is at the level its press ends at, so it only makes the press come early.
    /// The window is set by a press held 178.563 us, let go 178.562 us, then held for good.
    @Test func deferCanBeShorterThanTheLongestGapInsideABurst() throws {
        let bursts = try Self.rockerBursts()
        let analysis = TraceAnalysis(bursts: bursts, quietGapNs: 20_000_000, activeLevel: .activeLow)
        guard case .defer(let windowNs)? = analysis.deferAdvice?.smallest, let longestNs = analysis.press.longestInnerGapNs else {
            Issue.record("no defer advice: \(analysis.deferProblem ?? "")")
            return
        }
        #expect(windowNs == 178_562 && longestNs == 499_354)
        func gaps(_ burst: Burst) -> [(ns: Int64, level: Level)] {
            zip(burst.edges, burst.edges.dropFirst()).map { ($1.timeNs - $0.timeNs, $0.level) }
        }
        let widest = try #require(bursts.first { gaps($0).contains { $0.ns == longestNs } })
        #expect(gaps(widest).first { $0.ns == longestNs }?.level == widest.levelAfter)
        for candidateNs in [windowNs, 300_000, longestNs - 1, longestNs] {
            #expect(WindowSearch.eventCount(widest, .defer(windowNs: candidateNs), activeLevel: .activeLow) == 1)
        }
    }

    /// The rule, on made-up presses (active low: released is high). A long gap at the new level, or at
    /// the old level before the line has held the new one for W, makes no second event; a press held
    /// for longer than W and then let go for longer than W does (press, release, press).
    @Test func deferGoesWrongOnlyWhenTheLineHoldsTheNewLevelThenGoesBack() {
        let us: Int64 = 1_000
        func press(_ times: [Int64]) -> Burst {
            Burst(edges: times.enumerated().map { Edge(level: $0.offset % 2 == 0 ? .low : .high, timeNs: $0.element * us) }, levelBefore: .high)
        }
        func smallest(_ burst: Burst) -> Int64? { WindowSearch.smallestDeferWindow(burst, activeLevel: .activeLow, limitNs: 20_000 * us) }
        // Low 2 us, high 1 us, low 500 us (a long gap at the new level), high 2 us, then low.
        let early = press([0, 2, 3, 503, 505])
        #expect(smallest(early) == 2 * us)
        #expect(WindowSearch.eventCount(early, .defer(windowNs: 10 * us), activeLevel: .activeLow) == 1)
        // Low 1 us, high 300 us (at the old level, before the new one held), then low.
        #expect(smallest(press([0, 1, 301])) == 1 * us)
        // Low 100 us, high 60 us, then low: any window under 60 us gives three events.
        let back = press([0, 100, 160])
        #expect(smallest(back) == 60 * us)
        #expect(WindowSearch.eventCount(back, .defer(windowNs: 60 * us - 1), activeLevel: .activeLow) == 3)
    }

    /// The "keep windows under" figure: the shortest quiet time from one burst's last edge to the next
    /// one's first, and whether the button was pressed during it.
    @Test func theShortestGapBetweenBurstsSaysWhetherTheButtonWasPressed() throws {
        let rocker = TraceAnalysis(bursts: try Self.rockerBursts(), quietGapNs: 20_000_000, activeLevel: .activeLow)
        // The capture's tests were placed 50 ms apart: its shortest gap is a press held until its release.
        #expect(rocker.shortestGapBetweenBurstsNs == 48_956_750 && rocker.pressedDuringShortestGap == true)
        let ms: Int64 = 1_000_000
        let bursts = [
            Burst(edges: [Edge(level: .low, timeNs: 100 * ms), Edge(level: .high, timeNs: 100 * ms + 10_000), Edge(level: .low, timeNs: 101 * ms)], levelBefore: .high),
            Burst(edges: [Edge(level: .high, timeNs: 300 * ms)], levelBefore: .low),
            Burst(edges: [Edge(level: .low, timeNs: 330 * ms)], levelBefore: .high),
        ]
        let quick = TraceAnalysis(bursts: bursts, quietGapNs: 20 * ms, activeLevel: .activeLow)
        #expect(quick.shortestGapBetweenBurstsNs == 30 * ms && quick.pressedDuringShortestGap == false)
    }

    @Test func spikesRuleOutPlainEagerAndSetTheGlitchWindow() {
        let ms: Int64 = 1_000_000
        // A clean press and release, and between them (while released) a 3 µs spike.
        let bursts = [
            Burst(edges: [Edge(level: .low, timeNs: 100 * ms)], levelBefore: .high),
            Burst(edges: [Edge(level: .high, timeNs: 300 * ms)], levelBefore: .low),
            Burst(edges: [Edge(level: .low, timeNs: 500 * ms), Edge(level: .high, timeNs: 500 * ms + 3_000)], levelBefore: .high),
        ]
        let analysis = TraceAnalysis(bursts: bursts, quietGapNs: 20 * ms, activeLevel: .activeLow)
        #expect(analysis.spikes == 1 && analysis.widestSpikePulseNs == 3_000)
        #expect(analysis.eagerAdvice == nil && analysis.eagerProblem?.contains("glitch") == true)
        guard case .eager(_, let glitchNs)? = analysis.eagerGlitchAdvice?.recommended else {
            Issue.record("no eager+glitch advice")
            return
        }
        #expect(glitchNs >= 3_000)
        #expect(analysis.eagerGlitchAdvice?.eventsWithRecommended == 2)
        #expect(analysis.deferAdvice?.eventsWithRecommended == 2)
    }

    @Test(arguments: [(0 as Int64, 1_000_000 as Int64), (212_000, 1_000_000), (1_040_000, 5_000_000), (3_000_000, 10_000_000), (600_000, 2_000_000)])
    func recommendationsAreTwiceRoundedUpToOneTwoFive(smallestNs: Int64, recommendedNs: Int64) {
        #expect(TraceAnalysis.recommendation(for: smallestNs) == recommendedNs)
    }

    @Test func splitterSeparatesAtTheQuietGapExactly() {
        var splitter = BurstSplitter(initialLevel: .high, quietGapNs: 10)
        #expect(splitter.add(Edge(level: .low, timeNs: 0)) == nil)
        #expect(splitter.add(Edge(level: .high, timeNs: 10)) == nil)  // exactly the gap: same burst
        let first = splitter.add(Edge(level: .low, timeNs: 21))
        #expect(first?.edges.count == 2 && first?.levelBefore == .high && first?.levelAfter == .high)
        #expect(splitter.finish()?.levelBefore == .high)
    }
}
