import DebounceCore
import Pipeline
import Simulation
import Testing

/// A selector switch as a stage of the pipeline: its raw lines' changes in, its settled readings out
/// (`PipelineOutput.selection`), its deadline on its first line, its levels read again after lost
/// edges, its pending reading at the end of a recording, its health.
@Suite struct SelectorStageTests {
    static let ms: Int64 = 1_000_000
    /// A three-position rotary switch (one line a position, to ground) on run lines 1 to 3, beside a
    /// raw line 0, input 5.
    static let plan = SelectorPlan(lines: [1, 2, 3], configuration: SelectorConfiguration(code: .oneHot, lineCount: 3), input: 5)

    /// At position 1: line 1 reads low (active), lines 2 and 3 high.
    static func pipeline() -> ButtonPipeline {
        ButtonPipeline(plans: [.raw, .raw, .raw, .raw], selectors: [plan], initialLevels: [.high, .low, .high, .high], atNs: 0, reportsEdges: false)
    }

    static func selections(_ outputs: [PipelineOutput]) -> [SelectorEvent] {
        outputs.compactMap { if case .selection(_, let event) = $0 { event } else { nil } }
    }

    /// Feeds `edges` (line, level, time in ms) in order, advancing to each edge's time first.
    static func feed(_ pipeline: inout ButtonPipeline, _ edges: [(Int, Level, Double)], into outputs: inout [PipelineOutput]) {
        for (line, level, atMs) in edges {
            let timeNs = Int64(atMs * Double(ms))
            _ = pipeline.advance(toNs: timeNs, into: &outputs)
            pipeline.receive(LineEdge(line: line, edge: Edge(level: level, timeNs: timeNs)), into: &outputs)
        }
    }

    @Test func theStartsReadingIsItsPositionAndItsLinesReadActiveAsItSeesThem() {
        let pipeline = Self.pipeline()
        #expect(pipeline.decoder(selector: 0).position == 1)
        #expect((0..<4).map { pipeline.isActive(line: $0) } == [nil, true, false, false])
        #expect(pipeline.nextDeadlineNs == nil, "a valid reading at the start is no pending decision")
    }

    /// Break before make, with bounce on both lines: one `select` once the new line held for the
    /// settle time, named by the selector's input and first line; nothing while no line is active.
    @Test func aMoveBreaksBeforeItMakesAndIsReportedOnceItHeld() throws {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        // |-- line 1: low ‾‾ bounce ‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾
        // |-- line 2: ‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾ low, bounce, low ____
        Self.feed(&pipeline, [(1, .high, 10), (1, .low, 10.2), (1, .high, 10.4), (2, .low, 20), (2, .high, 20.1), (2, .low, 20.3)], into: &outputs)
        #expect(Self.selections(outputs).isEmpty, "a gap shorter than the settle time reports nothing")
        #expect(pipeline.nextDeadlineNs == 40_300_000, "the last change plus 20 ms")
        _ = pipeline.advance(toNs: 40_299_999, into: &outputs)
        #expect(Self.selections(outputs).isEmpty)
        _ = pipeline.advance(toNs: 40_300_000, into: &outputs)
        let reported = try #require(outputs.last)
        #expect(reported == .selection(OutputSource(input: 5, line: 1), SelectorEvent(kind: .select(position: 2, previous: 1), timeNs: 40_300_000, onsetNs: 20_300_000)))
        #expect(pipeline.nextDeadlineNs == nil)
        #expect(reported.countsAsEvent)
    }

    /// A switch left between two positions longer than the settle time: one `invalid` (no line
    /// active), then the position it lands on, with the last valid one as its previous.
    @Test func aSwitchCaughtBetweenPositionsIsInvalidOnceThenLands() {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        Self.feed(&pipeline, [(1, .high, 10), (3, .low, 100)], into: &outputs)
        _ = pipeline.advance(toNs: 200 * Self.ms, into: &outputs)
        #expect(
            Self.selections(outputs) == [
                SelectorEvent(kind: .invalid(activeLines: 0), timeNs: 30 * Self.ms, onsetNs: 10 * Self.ms),
                SelectorEvent(kind: .select(position: 3, previous: 1), timeNs: 120 * Self.ms, onsetNs: 100 * Self.ms),
            ])
        let health = pipeline.health(input: 5, atNs: 200 * Self.ms)
        #expect(health.edges == 2 && health.invalidReadings == 1 && health.bouncesAbsorbed == 0 && !health.countsGlitches)
    }

    /// The raw line beside the selector is left alone, and the selector's changes do not reach it.
    @Test func aRawLineBesideItStaysRaw() {
        var pipeline = ButtonPipeline(plans: [.raw, .raw, .raw, .raw], selectors: [Self.plan], initialLevels: [.high, .low, .high, .high], atNs: 0)
        var outputs: [PipelineOutput] = []
        Self.feed(&pipeline, [(0, .low, 1), (1, .high, 2), (2, .low, 3)], into: &outputs)
        _ = pipeline.advance(toNs: 50 * Self.ms, into: &outputs)
        #expect(outputs.filter { if case .edge = $0 { true } else { false } }.count == 3)
        #expect(Self.selections(outputs).map(\.kind) == [.select(position: 2, previous: 1)])
        #expect(pipeline.isActive(line: 0) == nil)
    }

    /// The make edge was lost: once the line has been quiet, its level is read again and the decoder
    /// takes it as a change then, so the position is still reported (late, never wrong).
    @Test func aLostEdgeIsFoundWhenTheLineIsReadAgain() throws {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        Self.feed(&pipeline, [(1, .high, 10)], into: &outputs)
        pipeline.suspectLoss(line: 2, count: 1)  // line 2's fall at 12 ms never came
        let quietNs = ButtonPipeline.rawSettleNs
        guard case .readLevels(var request) = pipeline.advance(toNs: quietNs, into: &outputs) else {
            Issue.record("a suspected selector line is read again once quiet")
            return
        }
        #expect(request.lines == [2])
        request.read { _ in .low }
        pipeline.resume(request, into: &outputs)
        _ = pipeline.advance(toNs: quietNs + 20 * Self.ms, into: &outputs)
        #expect(Self.selections(outputs) == [SelectorEvent(kind: .select(position: 2, previous: 1), timeNs: quietNs + 20 * Self.ms, onsetNs: quietNs)])
        #expect(pipeline.lostEvents(line: 2) == 1)
        let health = pipeline.health(input: 5, atNs: quietNs + 20 * Self.ms)
        #expect(health.edges == 1 && health.lostEvents == 1, "the line read again is no edge: \(health)")
    }

    /// A recording that ends while a reading is settling: it is decided as if time ran on.
    @Test func theEndOfARecordingDecidesThePendingReading() {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        Self.feed(&pipeline, [(1, .high, 10), (2, .low, 12)], into: &outputs)
        pipeline.finish(into: &outputs)
        #expect(Self.selections(outputs) == [SelectorEvent(kind: .select(position: 2, previous: 1), timeNs: 32 * Self.ms, onsetNs: 12 * Self.ms)])
        #expect(pipeline.nextDeadlineNs == nil)
    }

    /// A reload that keeps the selector keeps its decoder: the position goes on, nothing is reported again.
    @Test func aReloadCarriesItsPosition() {
        var previous = Self.pipeline()
        var outputs: [PipelineOutput] = []
        Self.feed(&previous, [(1, .high, 10), (2, .low, 12)], into: &outputs)
        _ = previous.advance(toNs: 40 * Self.ms, into: &outputs)
        var next = ButtonPipeline(plans: [.raw, .raw, .raw, .raw], selectors: [Self.plan], initialLevels: [.high, .high, .low, .high], atNs: 50 * Self.ms)
        next.carry(from: previous, previousLine: [0, 1, 2, 3], previousInput: [0])
        #expect(next.decoder(selector: 0).position == 2)
        #expect(next.decoder(selector: 0).unsettledReadings == previous.decoder(selector: 0).unsettledReadings)
    }

    /// Random bounce on every change, random gaps shorter than the settle time while moving: every
    /// position the switch rested on is reported once, in order, and nothing else.
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func everyRestIsReportedOnceWhateverTheBounce(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        var position = 1
        var rested: [Int] = []
        var timeNs: Int64 = 0
        func change(_ line: Int, to level: Level) {
            // 0 to 5 bounces of 20 µs to 1 ms before the level holds.
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                timeNs += Int64.random(in: 20_000...1_000_000, using: &random)
                pipeline.receive(LineEdge(line: line, edge: Edge(level: level, timeNs: timeNs)), into: &outputs)
                timeNs += Int64.random(in: 20_000...1_000_000, using: &random)
                pipeline.receive(LineEdge(line: line, edge: Edge(level: level.toggled, timeNs: timeNs)), into: &outputs)
            }
            timeNs += Int64.random(in: 20_000...1_000_000, using: &random)
            pipeline.receive(LineEdge(line: line, edge: Edge(level: level, timeNs: timeNs)), into: &outputs)
        }
        for _ in 0..<40 {
            let target = [1, 2, 3].filter { $0 != position }.randomElement(using: &random) ?? 1
            timeNs += Int64.random(in: 100_000_000...900_000_000, using: &random)
            _ = pipeline.advance(toNs: timeNs, into: &outputs)
            change(position, to: .high)
            timeNs += Int64.random(in: 1_000_000...12_000_000, using: &random)
            change(target, to: .low)
            position = target
            rested.append(target)
        }
        _ = pipeline.advance(toNs: timeNs + Self.ms * 100, into: &outputs)
        let reported = Self.selections(outputs)
        #expect(reported.map(\.kind) == zip(rested, [1] + rested).map { .select(position: $0, previous: $1) })
        #expect(pipeline.health(input: 5, atNs: timeNs).invalidReadings == 0)
    }
}
