import DebounceCore
import EventLoop
import Pipeline
import Simulation
import Testing

/// Raw edges reach the sinks only when one of them wants them (`Sink.consumesEdges`).
@Suite struct EdgeReportingTests {
    final class Recorder: Sink {
        let consumesEdges: Bool
        var outputs: [PipelineOutput] = []
        init(consumesEdges: Bool) { self.consumesEdges = consumesEdges }
        func consume(_ output: PipelineOutput, nowNs: Int64) { outputs.append(output) }
    }

    static let script = [Edge(level: .low, timeNs: 1_000_000), Edge(level: .high, timeNs: 1_000_100), Edge(level: .low, timeNs: 1_000_300)]

    static func edges(_ outputs: [PipelineOutput]) -> Int {
        outputs.filter { if case .edge = $0 { true } else { false } }.count
    }

    @Test(arguments: [false, true])
    func edgesGoOutOnlyWhenASinkWantsThem(anySinkWantsEdges: Bool) throws {
        let eventsOnly = Recorder(consumesEdges: false)
        let other = Recorder(consumesEdges: anySinkWantsEdges)
        let loop = try EventLoop(
            clock: .virtual(), source: SimulatedLines(initialLevel: .high, script: Self.script),
            plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5_000_000)))]), sinks: [eventsOnly, other])
        _ = try loop.run()
        // The events are the same either way; every sink sees the same outputs.
        let kinds: [ButtonEvent.Kind] = eventsOnly.outputs.compactMap { output -> ButtonEvent.Kind? in
            if case .event(_, let event) = output { return event.kind }
            return nil
        }
        #expect(kinds == [.press])
        #expect(Self.edges(eventsOnly.outputs) == (anySinkWantsEdges ? 3 : 0))
        #expect(Self.edges(other.outputs) == Self.edges(eventsOnly.outputs))
        #expect(loop.pipeline.statistics(line: 0)?.edges == 3)
    }
}
