import DebounceCore
import EventLoop
import Pipeline
import Simulation
import Testing

/// An encoder as a stage fed by two lines: the simulated bouncy encoder through the event loop and the
/// pipeline, against the detents it was turned by.
@Suite struct EncoderStageTests {
    static let plan = EncoderPlan(lineA: 0, lineB: 1)

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func everyDetentTurnedIsReportedOnceInItsDirection(seed: UInt64) throws {
        var truth = BouncyEncoder(seed: seed, gestures: 30, recordsDetents: true)
        while truth.next() != nil {}
        let detents = truth.takeDetents()
        let run = try VirtualRun.play(SimulatedLines(encoder: BouncyEncoder(seed: seed, gestures: 30)), plan: PipelinePlan(lines: [.raw], encoders: [Self.plan]))
        #expect(run.stop == .endOfInput)
        #expect(run.rotations.map(\.event.direction) == detents.map { $0.clockwise ? .clockwise : .counterClockwise })
        let net = detents.reduce(0) { $0 + ($1.clockwise ? 1 : -1) }
        #expect(run.loop.pipeline.decoder(encoder: 0).position == net)
        // Each detent is reported when its last transition's edge comes, at that edge's time.
        for (reported, turned) in zip(run.rotations.map(\.event), detents) {
            #expect(reported.timeNs >= turned.firstEdgeNs && reported.timeNs <= turned.lastEdgeNs)
            #expect(reported.onsetNs <= reported.timeNs)
        }
    }

    @Test func anEncoderBesideAButton() throws {
        // Line 0: a button; lines 1 and 2: an encoder turned one detent clockwise (11 → 01 → 00 → 10 → 11).
        let ms: Int64 = 1_000_000
        let scripts: [[Edge]] = [
            [Edge(level: .low, timeNs: 100 * ms), Edge(level: .high, timeNs: 300 * ms)],
            [Edge(level: .low, timeNs: 10 * ms), Edge(level: .high, timeNs: 30 * ms)],
            [Edge(level: .low, timeNs: 20 * ms), Edge(level: .high, timeNs: 40 * ms)],
        ]
        let lines = SimulatedLines(initialLevels: [.high, .high, .high], scripts: scripts.map { $0.makeIterator() })
        let run = try VirtualRun.play(
            lines, plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * ms))), .raw, .raw], encoders: [EncoderPlan(lineA: 1, lineB: 2)]))
        #expect(run.rotations.map(\.event.direction) == [.clockwise])
        #expect(run.rotations.first?.event.timeNs == 40 * ms)
        #expect(run.events.map(\.event.kind) == [.press, .release])
    }

    static func rotations(_ outputs: [PipelineOutput]) -> [EncoderEvent] {
        outputs.compactMap { if case .rotation(_, let event) = $0 { event } else { nil } }
    }

    /// One step per detent: a pipeline with the encoder on lines 0 and 1, turned clockwise at 2 ms
    /// and back at 3 ms.
    static func reversedAtThreeMilliseconds(suspectingLoss: Bool) -> (pipeline: ButtonPipeline, outputs: [PipelineOutput]) {
        let ms: Int64 = 1_000_000
        var pipeline = ButtonPipeline(
            plans: [.raw, .raw], encoders: [EncoderPlan(lineA: 0, lineB: 1, configuration: EncoderConfiguration(stepsPerDetent: .one))],
            initialLevels: [.high, .high], atNs: 0, reportsEdges: false)
        var outputs: [PipelineOutput] = []
        pipeline.receive(LineEdge(line: 0, edge: Edge(level: .low, timeNs: 2 * ms)), into: &outputs)
        _ = pipeline.advance(toNs: 2 * ms, into: &outputs)
        if suspectingLoss { pipeline.suspectLoss(line: 0) }
        pipeline.receive(LineEdge(line: 0, edge: Edge(level: .high, timeNs: 3 * ms)), into: &outputs)
        _ = pipeline.advance(toNs: 3 * ms, into: &outputs)
        return (pipeline, outputs)
    }

    @Test func aReversalCountsAtItsSettleThroughThePipelinesDeadline() {
        let ms: Int64 = 1_000_000
        var (pipeline, outputs) = Self.reversedAtThreeMilliseconds(suspectingLoss: false)
        #expect(Self.rotations(outputs).map(\.direction) == [.clockwise])
        #expect(pipeline.nextDeadlineNs == 8 * ms, "the settle's end, 5 ms after the reversal")
        _ = pipeline.advance(toNs: 8 * ms, into: &outputs)
        let settled = Self.rotations(outputs).dropFirst()
        #expect(settled.map(\.direction) == [.counterClockwise] && settled.map(\.timeNs) == [3 * ms])
        #expect(pipeline.nextDeadlineNs == nil)
    }

    @Test func aSuspectedLossWithholdsTheSettleAndTheLinesAreReadInstead() throws {
        let ms: Int64 = 1_000_000
        var (pipeline, outputs) = Self.reversedAtThreeMilliseconds(suspectingLoss: true)
        _ = pipeline.advance(toNs: 8 * ms, into: &outputs)
        #expect(Self.rotations(outputs).map(\.direction) == [.clockwise], "no detent from a settle while a loss is suspected")
        let quietNs = 3 * ms + ButtonPipeline.rawSettleNs
        #expect(pipeline.nextDeadlineNs == quietNs)
        guard case .readLevels(var request) = pipeline.advance(toNs: quietNs, into: &outputs) else {
            Issue.record("the lines were not read once quiet")
            return
        }
        request.read { _ in .high }
        pipeline.resume(request, into: &outputs)
        #expect(Self.rotations(outputs).map(\.direction) == [.clockwise], "a resync counts no detent")
        // Read again, the decoder settles reversals once more: clockwise (A low) at 40 ms, and back.
        pipeline.receive(LineEdge(line: 0, edge: Edge(level: .low, timeNs: 40 * ms)), into: &outputs)
        _ = pipeline.advance(toNs: 40 * ms, into: &outputs)
        pipeline.receive(LineEdge(line: 0, edge: Edge(level: .high, timeNs: 50 * ms)), into: &outputs)
        _ = pipeline.advance(toNs: 55 * ms, into: &outputs)
        #expect(Self.rotations(outputs).map(\.timeNs) == [2 * ms, 40 * ms, 50 * ms])
    }
}
