import DebounceCore
import EventLoop
import LineInput
import LinuxSys
import Pipeline
import SystemPackage
import Testing

/// A press that begins as the lines are requested: the kernel has queued its edge when the loop reads
/// the line's level, and the level read may already show it. Wherever the press falls (before the
/// read, during it, after it), every input kind reports it once: a button its press and release, a
/// counter one pulse, a contact its change, an encoder its detent.
@Suite struct QueuedAtStartTests {
    static let ms: Int64 = 1_000_000
    /// The virtual clock's reading when the loop reads the levels.
    static let readNs: Int64 = 1_000 * ms

    /// Lines as the kernel has them at the start: the levels a read returns, edges already queued
    /// (readable at once on the source's one descriptor), and edges that come later, by their time.
    /// `reportsSameLevelAsLoss`: as libgpiod 1, an edge to the level last known is evidence of a loss.
    final class KernelLines: EdgeSource {
        private let readable: StopSwitch
        private var levels: [Level]
        private var queued: [LineEdge]
        private var later: [LineEdge]
        private let reportsSameLevelAsLoss: Bool

        init(levels: [Level], queued: [LineEdge], later: [LineEdge] = [], reportsSameLevelAsLoss: Bool = false) throws {
            readable = try StopSwitch()
            if !queued.isEmpty { readable.stop() }
            (self.levels, self.queued, self.later, self.reportsSameLevelAsLoss) = (levels, queued, later, reportsSameLevelAsLoss)
        }

        var lineCount: Int { levels.count }
        var descriptors: [FileDescriptor] { [readable.descriptor] }
        var nextDueNs: Int64? { later.first?.edge.timeNs }
        var isExhausted: Bool { queued.isEmpty && later.isEmpty }
        func readLevel(line: Int) -> Level { levels[line] }
        func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) {
            _ = readable.take()
            for lineEdge in queued { take(lineEdge, into: &batch) }
            queued = []
        }
        func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) {
            while let first = later.first, first.edge.timeNs <= timeNs { take(later.removeFirst(), into: &batch) }
        }
        private func take(_ lineEdge: LineEdge, into batch: inout EdgeBatch) {
            if reportsSameLevelAsLoss, levels[lineEdge.line] == lineEdge.edge.level { batch.losses.append((line: lineEdge.line, count: nil)) }
            levels[lineEdge.line] = lineEdge.edge.level
            batch.edges.append(lineEdge)
        }
    }

    /// Where a press (a falling edge) falls against the start's level read, with what the read returns.
    enum PressPlace: CaseIterable, CustomTestStringConvertible {
        /// Queued 2 ms before the read, which shows it.
        case beforeTheRead
        /// Stamped with the clock's reading after the levels, the read showing it (the edge came first).
        case duringTheReadShown
        /// Stamped with the clock's reading after the levels, the read not showing it (the read came first).
        case duringTheReadNotShown
        /// 1 ms after the read: not queued yet.
        case afterTheRead

        var pressNs: Int64 {
            switch self {
            case .beforeTheRead: QueuedAtStartTests.readNs - 2 * QueuedAtStartTests.ms
            case .duringTheReadShown, .duringTheReadNotShown: QueuedAtStartTests.readNs
            case .afterTheRead: QueuedAtStartTests.readNs + QueuedAtStartTests.ms
            }
        }
        var levelRead: Level { self == .beforeTheRead || self == .duringTheReadShown ? .low : .high }
        var isQueued: Bool { self != .afterTheRead }
        var testDescription: String { "\(self)" }
    }

    /// A press at `place` and its release 100 ms later, on one line of `plan`; the outputs of the run.
    static func run(_ plan: LinePlan, pressAt place: PressPlace, reportsSameLevelAsLoss: Bool = false) throws -> [PipelineOutput] {
        let press = LineEdge(line: 0, edge: Edge(level: .low, timeNs: place.pressNs))
        let release = LineEdge(line: 0, edge: Edge(level: .high, timeNs: place.pressNs + 100 * ms))
        let lines = try KernelLines(
            levels: [place.levelRead], queued: place.isQueued ? [press] : [], later: place.isQueued ? [release] : [press, release],
            reportsSameLevelAsLoss: reportsSameLevelAsLoss)
        var outputs: [PipelineOutput] = []
        let loop = try EventLoop(clock: .virtual(startNs: readNs), source: lines, plan: PipelinePlan(lines: [plan]), sinks: [CallbackSink { outputs.append($0) }])
        #expect(try loop.run() == .endOfInput)
        return outputs
    }

    @Test(arguments: PressPlace.allCases)
    func aButtonReportsThePressAndItsRelease(place: PressPlace) throws {
        let outputs = try Self.run(LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: 5 * Self.ms))), pressAt: place)
        let events = outputs.compactMap { output -> ButtonEvent? in
            guard case .event(.line(0), let event) = output else { return nil }
            return event
        }
        #expect(events.map(\.kind) == [.press, .release])
        // The press carries its edge's own time, even when that is before the read.
        #expect(events.first?.timeNs == place.pressNs)
    }

    @Test(arguments: PressPlace.allCases)
    func aCounterCountsThePulseOnce(place: PressPlace) throws {
        let plan = LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: 5 * Self.ms)), role: .counter(initialTotal: 10))
        let totals = try Self.run(plan, pressAt: place).compactMap { output -> Int64? in
            guard case .count(.line(0), let count) = output else { return nil }
            return count.total
        }
        #expect(totals == [11])
    }

    @Test(arguments: PressPlace.allCases)
    func aContactReportsItsChangeAndBack(place: PressPlace) throws {
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * Self.ms)), role: .contact(ContactConfiguration(onDelayNs: 20 * Self.ms)))
        let states = try Self.run(plan, pressAt: place).compactMap { output -> Bool? in
            guard case .contact(.line(0), let event) = output else { return nil }
            return event.isOn
        }
        #expect(states == [true, false])
    }

    /// libgpiod 1 takes an edge to the level last read for a lost event; for the edge that the
    /// start's read already showed, that is no loss.
    @Test func anEdgeTheReadShowedIsNoLoss() throws {
        let outputs = try Self.run(LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: 5 * Self.ms))), pressAt: .beforeTheRead, reportsSameLevelAsLoss: true)
        let losses = outputs.filter { output in
            guard case .loss = output else { return false }
            return true
        }
        #expect(losses.isEmpty)
    }

    /// A press and its release both queued before the read, which shows the line released again.
    @Test func aWholePressBeforeTheReadIsReported() throws {
        let edges = [
            LineEdge(line: 0, edge: Edge(level: .low, timeNs: Self.readNs - 30 * Self.ms)),
            LineEdge(line: 0, edge: Edge(level: .high, timeNs: Self.readNs - 10 * Self.ms)),
        ]
        var outputs: [PipelineOutput] = []
        let loop = try EventLoop(
            clock: .virtual(startNs: Self.readNs), source: KernelLines(levels: [.high], queued: edges),
            plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: 5 * Self.ms)))]), sinks: [CallbackSink { outputs.append($0) }])
        #expect(try loop.run() == .endOfInput)
        let kinds = outputs.compactMap { output -> ButtonEvent.Kind? in
            guard case .event(.line(0), let event) = output else { return nil }
            return event.kind
        }
        #expect(kinds == [.press, .release])
    }

    /// An encoder turned one detent as it is requested: line A's first step is queued before the read,
    /// which shows it; the decoder starts from both lines at rest and reports the detent.
    @Test func anEncoderReportsTheDetent() throws {
        let t = Self.readNs
        let queued = [LineEdge(line: 0, edge: Edge(level: .low, timeNs: t - Self.ms))]
        let later = [
            LineEdge(line: 1, edge: Edge(level: .low, timeNs: t + 2 * Self.ms)),
            LineEdge(line: 0, edge: Edge(level: .high, timeNs: t + 4 * Self.ms)),
            LineEdge(line: 1, edge: Edge(level: .high, timeNs: t + 6 * Self.ms)),
        ]
        var outputs: [PipelineOutput] = []
        let loop = try EventLoop(
            clock: .virtual(startNs: t), source: KernelLines(levels: [.low, .high], queued: queued, later: later), plan: PipelinePlan(lines: [.raw, .raw], encoders: [EncoderPlan(lineA: 0, lineB: 1)]), sinks: [CallbackSink { outputs.append($0) }])
        #expect(try loop.run() == .endOfInput)
        let rotations = outputs.compactMap { output -> EncoderEvent? in
            guard case .rotation(OutputSource(input: 0, line: 0), let event) = output else { return nil }
            return event
        }
        #expect(rotations.count == 1)
        #expect(rotations.first?.position.magnitude == 1)
    }
}
