import DebounceCore
import EventLoop
import LineInput
import LinuxSys
import Pipeline
import Simulation
import Testing

@Suite struct SimulatedLinesTests {
    let script = [
        Edge(level: .low, timeNs: 1_000), Edge(level: .high, timeNs: 1_000), Edge(level: .low, timeNs: 5_000),
    ]

    @Test func deliversEachInstantsEdgesTogetherWhenDue() {
        let line = SimulatedLines(initialLevel: .high, script: script)
        var batch = EdgeBatch()
        #expect(line.nextDueNs == 1_000)
        line.deliverDue(byNs: 500, into: &batch)
        #expect(batch.edges.isEmpty)
        line.deliverDue(byNs: 1_000, into: &batch)
        #expect(batch.edges.map(\.edge) == Array(script.prefix(2)))
        #expect(line.nextDueNs == 5_000 && !line.isExhausted)
        batch.removeAll()
        line.deliverDue(byNs: 10_000, into: &batch)
        #expect(batch.edges.map(\.edge) == [script[2]])
        #expect(line.nextDueNs == nil && line.isExhausted)
        #expect(line.readLevel(line: 0) == .low)
    }

    @Test func scriptTimesCountFromTheStart() {
        let line = SimulatedLines(initialLevel: .high, script: script, startNs: 1_000_000)
        var batch = EdgeBatch()
        #expect(line.nextDueNs == 1_001_000)
        line.deliverDue(byNs: 1_000_999, into: &batch)
        #expect(batch.edges.isEmpty)
        line.deliverDue(byNs: .max, into: &batch)
        #expect(batch.edges.map(\.edge.timeNs) == [1_001_000, 1_001_000, 1_005_000])
    }

    @Test func droppedEdgesChangeTheTrueLevelAreNotDeliveredAndAreCounted() {
        let line = SimulatedLines(initialLevel: .high, script: script, dropProbability: 1)
        var batch = EdgeBatch()
        line.deliverDue(byNs: .max, into: &batch)
        #expect(batch.edges.isEmpty && line.droppedEdges == [3])
        #expect(batch.losses.map(\.line) == [0, 0, 0] && batch.losses.allSatisfy { $0.count == 1 })
        #expect(line.lostEvents(line: 0) == 3)
        #expect(line.readLevel(line: 0) == .low)
    }

    @Test func severalLinesDeliverInTimeOrder() {
        let lines = SimulatedLines(
            initialLevels: [.high, .high],
            scripts: [[Edge(level: .low, timeNs: 30), Edge(level: .high, timeNs: 50)].makeIterator(), [Edge(level: .low, timeNs: 40)].makeIterator()])
        var batch = EdgeBatch()
        lines.deliverDue(byNs: 100, into: &batch)
        #expect(batch.edges.map(\.line) == [0, 1, 0])
        #expect(batch.edges.map(\.edge.timeNs) == [30, 40, 50])
    }

    @Test func realTimeRunsSleepUntilEachEdge() throws {
        let startNs = MonotonicClock.nowNs
        let line = SimulatedLines(initialLevel: .high, script: [Edge(level: .low, timeNs: 20_000_000)])
        let loop = try EventLoop(clock: .realTime(), source: line, plan: PipelinePlan(lines: [LinePlan(debounce: .init(both: .eager(lockoutNs: 1_000)))]), sinks: [])
        #expect(try loop.run() == .endOfInput)
        // Slept (not spun) at least the 20 ms of line time; how much longer depends on the machine.
        #expect(MonotonicClock.nowNs - startNs >= 20_000_000)
        #expect(loop.wakeups <= 4)
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
