import DebounceCore
import EventLoop
import Pipeline
import Simulation
import Testing

/// A meter's rate through the event loop and the pipeline in virtual time: from the onsets of its
/// debounced pulses (bounce and glitches on the line), its falls at the stage's deadlines.
@Suite struct MeterRateStageTests {
    static let ms: Int64 = 1_000_000
    static let s: Int64 = 1_000_000_000
    /// An S0 output: active low, 30 ms pulses, debounced with `defer:10ms` (a change must hold 10 ms).
    static let plan = LinePlan(
        debounce: DebounceConfiguration(both: .defer(windowNs: 10 * ms), activeLevel: .activeLow),
        role: .counter(initialTotal: 0, rate: MeterRateConfiguration(perPulsePerSecond: 3600, timeoutNs: 60 * s, reportIntervalNs: 5 * s)))

    /// A 30 ms pulse at `onsetNs`: its contact bounces for 1.2 ms, and a 200 µs spike comes 1 s later.
    static func pulse(_ onsetNs: Int64) -> [Edge] {
        [
            Edge(level: .low, timeNs: onsetNs), Edge(level: .high, timeNs: onsetNs + 400_000), Edge(level: .low, timeNs: onsetNs + 1_200_000),
            Edge(level: .high, timeNs: onsetNs + 30 * ms),
            Edge(level: .low, timeNs: onsetNs + s), Edge(level: .high, timeNs: onsetNs + s + 200_000),
        ]
    }

    static func run(onsets: [Int64]) throws -> VirtualRun {
        try VirtualRun.play(SimulatedLines(initialLevel: .high, script: onsets.flatMap(pulse)), plans: [plan])
    }

    @Test func aMetersPowerIsExactAtEachPulseAndItsStepShowsAtTheNext() throws {
        // 1 kW (3.6 s apart), then 3 kW (1.2 s), then a nanosecond under 1 kW.
        let intervals: [Int64] = Array(repeating: 3_600_000_000, count: 5) + Array(repeating: 1_200_000_000, count: 5) + Array(repeating: 3_600_000_001, count: 3)
        var onsets: [Int64] = [5 * Self.s]
        for intervalNs in intervals { onsets.append(onsets[onsets.count - 1] + intervalNs) }
        let run = try Self.run(onsets: onsets)
        // Bounce and spikes counted nothing: one pulse per onset, stamped with the kernel's time of its first edge.
        #expect(run.counts.map { $0.pulse.onsetNs } == onsets)
        let slower: Double = 3600 * 1e9 / 3_600_000_001
        let expected: [Double] = [0, 1000, 1000, 1000, 1000, 1000, 3000, 3000, 3000, 3000, 3000, slower, slower, slower]
        #expect(run.counts.map { $0.pulse.rate } == expected)
        // Pulses more often than the fall's interval: the rate never fell in between.
        #expect(run.rateFalls.isEmpty)
    }

    @Test func theRateFallsAtItsDeadlinesAndIsZeroAfterTheTimeoutInVirtualTime() throws {
        let s = Self.s
        // Two pulses 3.6 s apart, then nothing for 100 s (a pulse then, so that the run goes on).
        let lastNs = 5 * s + 3_600_000_000
        let run = try Self.run(onsets: [5 * s, lastNs, lastNs + 100 * s])
        #expect(run.counts.map { $0.pulse.rate } == [0, 1000, 0])
        let falls: [CounterReading] = run.rateFalls.map { $0.fall }
        // Every 5 s from the end of the last interval plus 5 s, one pulse over the time elapsed...
        let expectedNs = (0..<11).map { lastNs + 3_600_000_000 + 5 * s + Int64($0) * 5 * s }
        #expect(falls.dropLast().map { $0.timeNs } == expectedNs)
        let expectedRates: [Double] = expectedNs.map { 3600 * 1e9 / Double($0 - lastNs) }
        #expect(falls.dropLast().map { $0.rate } == expectedRates)
        // ... then 0 at the timeout, 60 s after the last onset, and nothing more until the next pulse.
        #expect(falls.last == CounterReading(rate: 0, ratePerMinute: 0, timeNs: lastNs + 60 * s, total: 2))
        #expect(falls.count == 12)  // 8.6 s ... 58.6 s after the onset, then the timeout
        #expect(run.rateFalls.allSatisfy { $0.line == 0 })
    }

    @Test func aFinishedSimulationDoesNotWaitForTheRateToFall() throws {
        // The script ends after two pulses: the run ends there, with the rate at 1 kW and a fall due.
        let run = try Self.run(onsets: [5 * Self.s, 8_600_000_000])
        #expect(run.stop == StopReason.endOfInput)
        #expect(run.rateFalls.isEmpty)
        #expect(run.loop.pipeline.nextDeadlineNs != nil && run.loop.pipeline.nextDecisionDeadlineNs == nil)
    }

    /// A change that begins just before a fall is due waits for its debouncer: a spike is rejected and
    /// the rate falls then, at that time's value; a pulse is a pulse, and the rate never fell.
    @Test func aFallWaitsForAChangeThatBeganBeforeIt() throws {
        let s = Self.s
        let lastNs = 5 * s + 3_600_000_000
        let dueNs = lastNs + 3_600_000_000 + 5 * s
        func edges(_ onsetNs: Int64) -> [Edge] { [Edge(level: .low, timeNs: onsetNs), Edge(level: .high, timeNs: onsetNs + 30 * Self.ms)] }
        // A 200 µs spike 1 ms before the fall, and a pulse 30 s later to keep the run going.
        let spike = [Edge(level: .low, timeNs: dueNs - Self.ms), Edge(level: .high, timeNs: dueNs - Self.ms + 200_000)]
        let spiked = try VirtualRun.play(
            SimulatedLines(initialLevel: .high, script: edges(5 * s) + edges(lastNs) + spike + edges(lastNs + 30 * s)), plans: [Self.plan])
        #expect(spiked.counts.count == 3, "the spike is no pulse")
        let first = try #require(spiked.rateFalls.first?.fall)
        #expect(first.timeNs > dueNs && first.timeNs <= dueNs + 11 * Self.ms, "the fall waited for the spike's rejection: \(first.timeNs - dueNs) ns late")
        #expect(first.rate == 3600 * 1e9 / Double(first.timeNs - lastNs))
        // A real pulse beginning 1 ms before the fall: no fall, its own rate at 1 ms under 8.6 s.
        let pulsed = try VirtualRun.play(
            SimulatedLines(initialLevel: .high, script: edges(5 * s) + edges(lastNs) + edges(dueNs - Self.ms)), plans: [Self.plan])
        #expect(pulsed.rateFalls.isEmpty)
        #expect(pulsed.counts.last?.pulse.rate == 3600 * 1e9 / Double(dueNs - Self.ms - lastNs))
    }
}
