import DebounceCore
import EventLoop
import LineInput
import Pipeline
import Simulation
import Testing

/// Where a loop that yields after events (one CPU) hands over the CPU: as soon as every sink has
/// written the events, so that their reader runs before the rest of the wakeup.
@Suite struct HandOverTests {
    static let ms: Int64 = 1_000_000

    /// A sink that notes, at each event it takes and at each `advance`, how often the loop has yielded so far.
    final class YieldWatcher: Sink {
        let writesOutputsAtOnce: Bool
        weak var loop: EventLoop?
        /// The loop's `yields` when each event came, and at each `advance` after a wakeup with events.
        private(set) var atEvents: [Int] = []
        private(set) var atAdvanceAfterEvents: [Int] = []
        private var sawEvent = false
        private var lastAdvanceNs = Int64.min

        /// A deadline between the two edges: in virtual time, the loop takes the second edge in a
        /// wakeup of its own rather than ahead, in the first's.
        var nextDeadlineNs: Int64? { lastAdvanceNs < 60 * HandOverTests.ms ? 60 * HandOverTests.ms : nil }

        init(writesOutputsAtOnce: Bool) { self.writesOutputsAtOnce = writesOutputsAtOnce }

        var consumesEdges: Bool { false }
        func consume(_ output: PipelineOutput, nowNs: Int64) {
            guard case .event = output else { return }
            atEvents.append(loop?.yields ?? -1)
            sawEvent = true
        }
        func advance(toNs nowNs: Int64) {
            lastAdvanceNs = nowNs
            guard sawEvent else { return }
            sawEvent = false
            atAdvanceAfterEvents.append(loop?.yields ?? -1)
        }
    }

    /// An eager press and release, 100 ms apart: two wakeups with an event each.
    static func run(writesOutputsAtOnce: Bool...) throws -> (loop: EventLoop, sinks: [YieldWatcher]) {
        let script = [Edge(level: .low, timeNs: 10 * ms), Edge(level: .high, timeNs: 110 * ms)]
        let sinks = writesOutputsAtOnce.map(YieldWatcher.init)
        let loop = try EventLoop(
            clock: .virtual(), source: SimulatedLines(initialLevel: .high, script: script),
            plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: ms)))]), sinks: sinks,
            yieldsAfterEvents: true)
        for sink in sinks { sink.loop = loop }
        #expect(try loop.run() == .endOfInput)
        return (loop, sinks)
    }

    /// Every sink writes each event as it takes it (a printer to a pipe): the loop yields right after
    /// handing the events over, before the sinks' `advance` and the rest of the wakeup.
    @Test func yieldsRightAfterTheEventsWhenEverySinkHasWrittenThem() throws {
        let (loop, sinks) = try Self.run(writesOutputsAtOnce: true, true)
        #expect(loop.yieldsAtDispatch)
        #expect(loop.yields == 2)
        for sink in sinks {
            #expect(sink.atEvents == [0, 1])
            #expect(sink.atAdvanceAfterEvents == [1, 2])
        }
    }

    /// One sink sends in `advance` (MQTT, a socket): the loop yields after the sinks' `advance`, once
    /// a wakeup, as before.
    @Test func yieldsAfterTheSinksAdvanceWhenOneSendsThen() throws {
        let (loop, sinks) = try Self.run(writesOutputsAtOnce: true, false)
        #expect(!loop.yieldsAtDispatch)
        #expect(loop.yields == 2)
        for sink in sinks {
            #expect(sink.atEvents == [0, 1])
            #expect(sink.atAdvanceAfterEvents == [0, 1])
        }
    }

    /// A loop that does not yield (several CPUs, virtual time) never hands over at the dispatch either.
    @Test func aLoopThatDoesNotYieldNeverYieldsAtTheDispatch() throws {
        let loop = try EventLoop(
            clock: .virtual(), source: SimulatedLines(initialLevel: .high, script: []),
            plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: Self.ms)))]),
            sinks: [YieldWatcher(writesOutputsAtOnce: true)], yieldsAfterEvents: false)
        #expect(!loop.yieldsAtDispatch)
    }
}
