import DebounceCore
import EventLoop
import LineInput
import LinuxSys
import Pipeline
import SystemPackage
import Testing

/// A chip that goes away and comes back while watched: the sinks are told of both, the other lines go
/// on meanwhile, and the lines of the chip that is back are read again, so that a button let go while
/// its chip was away is released.
@Suite struct ChipAvailabilityTests {
    static let ms: Int64 = 1_000_000

    /// Two lines, on two chips; each step at its time: an edge, or line 0's chip going away or coming
    /// back (its level read then being `levelWhileAway`).
    final class TwoChips: EdgeSource {
        enum Step { case edge(LineEdge), away, back }
        var steps: [(timeNs: Int64, step: Step)]
        var level: [Level] = [.high, .high]
        let levelWhileAway: Level
        private(set) var readsWhileAway = 0
        private var away = false

        init(steps: [(timeNs: Int64, step: Step)], levelWhileAway: Level) {
            self.steps = steps
            self.levelWhileAway = levelWhileAway
        }

        var lineCount: Int { 2 }
        var nextDueNs: Int64? { steps.first?.timeNs }
        var isExhausted: Bool { steps.isEmpty }
        func readLevel(line: Int) -> Level {
            if away { readsWhileAway += 1 }
            return level[line]
        }
        func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) {
            while let first = steps.first, first.timeNs <= timeNs {
                steps.removeFirst()
                switch first.step {
                case .edge(let edge):
                    level[edge.line] = edge.edge.level
                    batch.edges.append(edge)
                case .away:
                    away = true
                    batch.availability.append(ChipAvailability(chip: "gpiochip5", lines: [0], isAvailable: false))
                case .back:
                    away = false
                    level[0] = levelWhileAway
                    batch.losses.append((line: 0, count: nil))
                    batch.availability.append(ChipAvailability(chip: "gpiochip6", lines: [0], isAvailable: true))
                }
            }
        }
    }

    final class Collector: Sink {
        var changes: [(ChipAvailability, Int64)] = []
        var events: [(line: Int, kind: ButtonEvent.Kind, timeNs: Int64)] = []
        var consumesEdges: Bool { false }
        func consume(_ output: PipelineOutput, nowNs: Int64) {
            if case .event(let source, let event) = output { events.append((source.lineIndex, event.kind, event.timeNs)) }
        }
        func availabilityChanged(_ change: ChipAvailability, atNs nowNs: Int64) { changes.append((change, nowNs)) }
    }

    static func run(levelWhileAway: Level) throws -> (Collector, TwoChips) {
        let steps: [(timeNs: Int64, step: TwoChips.Step)] = [
            (10 * ms, .edge(LineEdge(line: 0, edge: Edge(level: .low, timeNs: 10 * ms)))),
            (100 * ms, .away),
            (150 * ms, .edge(LineEdge(line: 1, edge: Edge(level: .low, timeNs: 150 * ms)))),
            (250 * ms, .edge(LineEdge(line: 1, edge: Edge(level: .high, timeNs: 250 * ms)))),
            (400 * ms, .back),
        ]
        let source = TwoChips(steps: steps, levelWhileAway: levelWhileAway)
        let sink = Collector()
        let loop = try EventLoop(
            clock: .virtual(), source: source, plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * ms)))]), sinks: [sink])
        #expect(try loop.run() == .endOfInput)
        return (sink, source)
    }

    @Test func aButtonLetGoWhileItsChipWasAwayIsReleasedWhenItIsBack() throws {
        let (sink, source) = try Self.run(levelWhileAway: .high)
        #expect(sink.changes.map(\.0) == [
            ChipAvailability(chip: "gpiochip5", lines: [0], isAvailable: false), ChipAvailability(chip: "gpiochip6", lines: [0], isAvailable: true),
        ])
        #expect(sink.changes.map(\.1) == [100 * Self.ms, 400 * Self.ms])
        // Line 0 pressed before, released once back; line 1, on the other chip, went on meanwhile.
        #expect(sink.events.filter { $0.line == 0 }.map(\.kind) == [.press, .release])
        #expect(try #require(sink.events.last { $0.line == 0 }).timeNs >= 400 * Self.ms)
        #expect(sink.events.filter { $0.line == 1 }.map(\.kind) == [.press, .release])
        #expect(source.readsWhileAway == 0)
    }

    /// A chip gone between the request and the loop's first read: its descriptor is readable at the
    /// start, and reading it says so.
    final class GoneAtStart: EdgeSource {
        private let readable: StopSwitch
        private var told = false
        init() throws {
            readable = try StopSwitch()
            readable.stop()
        }
        var lineCount: Int { 1 }
        var descriptors: [FileDescriptor] { told ? [] : [readable.descriptor] }
        var isExhausted: Bool { told }
        func readLevel(line: Int) -> Level { .high }
        func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) {
            _ = readable.take()
            told = true
            batch.availability.append(ChipAvailability(chip: "gpiochip5", lines: [0], isAvailable: false))
        }
    }

    @Test func aChipGoneAsTheLoopStartsIsToldToTheSinks() throws {
        let sink = Collector()
        let loop = try EventLoop(clock: .virtual(), source: try GoneAtStart(), plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * Self.ms)))]), sinks: [sink])
        #expect(try loop.run() == .endOfInput)
        #expect(sink.changes.map(\.0) == [ChipAvailability(chip: "gpiochip5", lines: [0], isAvailable: false)])
    }

    @Test func aButtonStillHeldWhenItsChipIsBackStaysPressed() throws {
        let (sink, _) = try Self.run(levelWhileAway: .low)
        #expect(sink.events.filter { $0.line == 0 }.map(\.kind) == [.press])
    }
}
