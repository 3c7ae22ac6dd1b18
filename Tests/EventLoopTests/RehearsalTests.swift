import DebounceCore
import EventLoop
import Pipeline
import Simulation
import Testing

/// Before its first wait, a live loop rehearses an event's way through a copy of its stages and its
/// sinks' `rehearse`, so that the first real edge finds that code run once; nothing of it is reported.
@Suite struct RehearsalTests {
    static let ms: Int64 = 1_000_000

    /// Keeps what the loop consumed and what it only rehearsed.
    final class Recorder: Sink {
        var consumed: [PipelineOutput] = []
        var rehearsed: [PipelineOutput] = []
        let consumesEdges = false
        func consume(_ output: PipelineOutput, nowNs: Int64) { consumed.append(output) }
        func rehearse(_ output: PipelineOutput) { rehearsed.append(output) }
    }

    /// Each line's rehearsed event kinds, in order.
    static func kinds(_ outputs: [PipelineOutput], line wanted: Int) -> [ButtonEvent.Kind] {
        outputs.compactMap { output in
            guard case .event(let source, let event) = output, source.lineIndex == wanted else { return nil }
            return event.kind
        }
    }

    /// Two lines released at the start, one eager with a hold, one deferred (the run ends at once: its
    /// simulated lines have no edges). The sink rehearses a press and a release of each line, the hold
    /// that the press held for the rehearsal's two seconds makes, and the long release after it;
    /// nothing is consumed, reported or counted, and the run's stages saw no edge.
    @Test func aLiveLoopRehearsesEachLinesEventsWithoutReportingThem() throws {
        let recorder = Recorder()
        let plans = [
            LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: Self.ms)), gestures: GestureConfiguration(holdNs: 500 * Self.ms)),
            LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * Self.ms))),
        ]
        let lines = SimulatedLines(initialLevels: [.high, .high], scripts: [[Edge]().makeIterator(), [Edge]().makeIterator()])
        let loop = try EventLoop(clock: .realTime(), source: lines, plan: PipelinePlan(lines: plans), sinks: [recorder])
        #expect(try loop.run() == .endOfInput)
        #expect(Self.kinds(recorder.rehearsed, line: 0) == [.press, .hold, .release, .longRelease])
        #expect(Self.kinds(recorder.rehearsed, line: 1) == [.press, .release])
        #expect(recorder.consumed.isEmpty)
        #expect(loop.reportedEvents == 0)
        for line in 0..<2 {
            #expect(loop.pipeline.statistics(line: line)?.edges == 0)
            #expect(loop.pipeline.debouncer(line: line)?.isPressed == false)
        }
    }

    /// A loop in virtual time (replay, a simulation, the tests) has no first edge to speed up: it does
    /// not rehearse.
    @Test func aLoopInVirtualTimeDoesNotRehearse() throws {
        let recorder = Recorder()
        let lines = SimulatedLines(initialLevel: .high, script: [Edge(level: .low, timeNs: Self.ms)])
        let loop = try EventLoop(
            clock: .virtual(), source: lines, plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: Self.ms)))]), sinks: [recorder])
        #expect(try loop.run() == .endOfInput)
        #expect(recorder.rehearsed.isEmpty)
        #expect(Self.kinds(recorder.consumed, line: 0) == [.press])
    }
}
