import DebounceCore
import LineBackends
import Testing

@Suite struct SimulatedLineTests {
    let script = [
        Edge(level: .low, timeNs: 1_000), Edge(level: .high, timeNs: 1_000), Edge(level: .low, timeNs: 5_000),
    ]

    @Test func deliversEachInstantsEdgesTogetherAndJumpsToDeadlines() {
        var line = SimulatedLine(initialLevel: .high, script: script)
        var edges: [LineEdge] = []
        #expect(line.wait(untilNs: 500, appendingTo: &edges) == .timedOut)
        #expect(line.nowNs == 500 && edges.isEmpty)
        #expect(line.wait(untilNs: nil, appendingTo: &edges) == .edges)
        #expect(edges.map(\.edge) == Array(script.prefix(2)) && line.nowNs == 1_000)
        edges.removeAll()
        #expect(line.wait(untilNs: 10_000, appendingTo: &edges) == .edges)
        #expect(edges.map(\.edge) == [script[2]] && line.nowNs == 5_000)
        #expect(line.wait(untilNs: 10_000, appendingTo: &edges) == .timedOut)
        #expect(line.nowNs == 10_000)
        #expect(line.wait(untilNs: nil, appendingTo: &edges) == .endOfInput)
        #expect(line.readLevel() == .low)
    }

    @Test func droppedEdgesChangeTheTrueLevelButAreNotDelivered() {
        var line = SimulatedLine(initialLevel: .high, script: script, dropProbability: 1)
        var edges: [LineEdge] = []
        #expect(line.wait(untilNs: nil, appendingTo: &edges) == .endOfInput)
        #expect(edges.isEmpty && line.droppedEdges == 3)
        #expect(line.readLevel() == .low)
    }

    @Test func realTimePacingSleepsUntilEachEdge() {
        let startNs = MonotonicClock.nowNs
        var line = SimulatedLine(initialLevel: .high, script: [Edge(level: .low, timeNs: 20_000_000)], pacing: .realTime)
        var edges: [LineEdge] = []
        #expect(line.wait(untilNs: nil, appendingTo: &edges) == .edges)
        // Slept (not spun) at least the 20 ms of line time; how much longer depends on the machine.
        #expect(MonotonicClock.nowNs - startNs >= 20_000_000)
    }
}

@Suite struct BouncyButtonTests {
    @Test func sameSeedSameEdgesOtherSeedOtherEdges() {
        let a = Array(BouncyButton(seed: 7, presses: 20)), b = Array(BouncyButton(seed: 7, presses: 20))
        #expect(a == b)
        #expect(a != Array(BouncyButton(seed: 8, presses: 20)))
    }

    @Test func edgesAreInTimeOrderAndAlternateWithinBursts() {
        var button = BouncyButton(profile: .noisy, seed: 3, presses: 200)
        var level = button.initialLevel
        var lastNs = Int64.min
        while let cycle = button.nextCycle() {
            for edge in cycle.edges {
                #expect(edge.timeNs > lastNs)
                #expect(edge.level != level)
                level = edge.level
                lastNs = edge.timeNs
            }
            #expect(cycle.edges.count == cycle.press.edgeCount + cycle.release.edgeCount + 2 * cycle.spikes)
        }
        #expect(level == button.initialLevel)
    }

    /// The typical profile against the published figures it claims (Ganssle: average about 1.5 ms,
    /// usually under 6.2 ms, occasionally tens of ms; pulses well under a microsecond; releases cleaner).
    @Test func typicalProfileMatchesPublishedMeasurements() {
        var button = BouncyButton(seed: 11, presses: 5_000)
        var pressLengths: [Int64] = [], releaseEdges = 0, pressEdges = 0, shortestPulseNs = Int64.max
        while let cycle = button.nextCycle() {
            pressLengths.append(cycle.press.lastEdgeNs - cycle.press.firstEdgeNs)
            pressEdges += cycle.press.edgeCount
            releaseEdges += cycle.release.edgeCount
            for (a, b) in zip(cycle.edges, cycle.edges.dropFirst()) { shortestPulseNs = min(shortestPulseNs, b.timeNs - a.timeNs) }
        }
        let meanMs = Double(pressLengths.reduce(0, +)) / Double(pressLengths.count) / 1e6
        let over6_2 = pressLengths.filter { $0 > 6_200_000 }.count
        #expect(meanMs > 1.2 && meanMs < 2.0, "mean press bounce \(meanMs) ms")
        #expect(over6_2 > 10 && over6_2 < 150, "\(over6_2) of 5000 presses bounced longer than 6.2 ms")
        #expect(pressLengths.max()! <= 40_000_000)
        #expect(shortestPulseNs < 1_000)
        #expect(releaseEdges * 3 < pressEdges)
    }
}
