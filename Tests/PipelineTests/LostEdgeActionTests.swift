import DebounceCore
import Pipeline
import Testing

/// The lost-edge exchange as actions: `advance` asks for levels (`PipelineAction.readLevels`) before
/// deciding anything, the answer (`resume`) makes the step; without a loss nothing is asked.
@Suite struct LostEdgeActionTests {
    static let ms: Int64 = 1_000_000

    /// Line 0 debounced (defer:1ms), line 1 debounced, line 2 raw; every line high at 0.
    static func pipeline() -> ButtonPipeline {
        let debounced = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: Self.ms)))
        return ButtonPipeline(plans: [debounced, debounced, .raw], initialLevels: [.high, .high, .high], atNs: 0)
    }

    static func presses(_ outputs: [PipelineOutput]) -> [Int] {
        outputs.compactMap { if case .event(let source, let event) = $0, event.kind == .press { source.lineIndex } else { nil } }
    }

    @Test func withoutALossNothingIsAsked() {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        pipeline.receive(LineEdge(line: 0, edge: Edge(level: .low, timeNs: Self.ms)), into: &outputs)
        guard case .done = pipeline.advance(toNs: 2 * Self.ms, into: &outputs) else {
            Issue.record("asked for levels with no loss")
            return
        }
        #expect(Self.presses(outputs) == [0])
    }

    /// A due decision on a line that may have lost edges waits for the level. Read low, the press is
    /// decided, the line has settled and follows the same reading (one read, not two): its suspicion is
    /// cleared. Read high (the release was lost), there is no press, and the line, weighing the release
    /// until 3 ms, is asked for again at its next decision.
    @Test(arguments: [(Level.high, [Int]()), (Level.low, [0])])
    func aDueDecisionWaitsForTheLevelRead(level: Level, presses: [Int]) throws {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        pipeline.receive(LineEdge(line: 0, edge: Edge(level: .low, timeNs: Self.ms)), into: &outputs)
        pipeline.suspectLoss(line: 0)
        guard case .readLevels(var request) = pipeline.advance(toNs: 2 * Self.ms, into: &outputs) else {
            Issue.record("no levels asked for")
            return
        }
        #expect(request.lines == [0], "only the line that may have lost edges")
        #expect(Self.presses(outputs).isEmpty, "nothing decided before the answer")
        var reads = 0
        request.read { _ in
            reads += 1
            return level
        }
        #expect(reads == 1 && request.levels == [level])
        pipeline.resume(request, into: &outputs)
        #expect(Self.presses(outputs) == presses)
        #expect(pipeline.debouncer(line: 0)?.isPressed == (level == .low))
        switch pipeline.advance(toNs: 10 * Self.ms, into: &outputs) {
        case .done: #expect(level == .low, "settled, read, and no longer suspected")
        case .readLevels(let next): #expect(level == .high && next.lines == [0], "still suspected, with a decision due")
        }
    }

    /// A raw line that may have lost edges is read once it has been quiet for `rawSettleNs`, and a
    /// level its edges had not shown is reported; a stop reads it too.
    @Test func aRawLineIsReadOnceQuietAndAtAStop() throws {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        pipeline.receive(LineEdge(line: 2, edge: Edge(level: .low, timeNs: Self.ms)), into: &outputs)
        pipeline.suspectLoss(line: 2)
        guard case .done = pipeline.advance(toNs: 2 * Self.ms, into: &outputs) else {
            Issue.record("read before the raw line was quiet")
            return
        }
        let quietNs = Self.ms + ButtonPipeline.rawSettleNs
        #expect(pipeline.nextDeadlineNs == quietNs)
        guard case .readLevels(var request) = pipeline.advance(toNs: quietNs, into: &outputs) else {
            Issue.record("no levels asked for")
            return
        }
        #expect(request.lines == [2])
        request.read { _ in .high }
        pipeline.resume(request, into: &outputs)
        #expect(outputs.last == .levelCorrected(line: 2, level: .high, atNs: quietNs))

        pipeline.suspectLoss(line: 2)
        pipeline.suspectLoss(line: 0)
        guard case .readLevels(var atStop) = pipeline.stop(atNs: quietNs + Self.ms) else {
            Issue.record("a stop reads a raw line that may have lost edges")
            return
        }
        #expect(atStop.lines == [2], "a stop reads raw lines only")
        atStop.read { _ in .low }
        pipeline.resume(atStop, into: &outputs)
        #expect(outputs.last == .levelCorrected(line: 2, level: .low, atNs: quietNs + Self.ms))
    }
}
