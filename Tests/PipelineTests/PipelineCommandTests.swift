import DebounceCore
import Pipeline
import Testing

/// What a user asks of a running pipeline (`PipelineCommand.reset`, the control socket's): a counter's
/// total or an encoder's position set, the next pulse or detent counting on from it, and nothing for
/// an input that has no value to set.
@Suite struct PipelineCommandTests {
    static let ms: Int64 = 1_000_000
    static let debounce = DebounceConfiguration(both: .defer(windowNs: 10 * ms), activeLevel: .activeLow)
    static let counter = LinePlan(
        debounce: debounce, role: .counter(initialTotal: 40_000, rate: MeterRateConfiguration(perPulsePerSecond: 3600, timeoutNs: 60_000 * ms, reportIntervalNs: 5_000 * ms)),
        input: 1)
    static let button = LinePlan(debounce: debounce, input: 0)

    /// Line 0 a button (input 0), line 1 a counter (input 1), lines 2 and 3 an encoder (input 2, 0...20, at 5).
    static func pipeline() -> ButtonPipeline {
        ButtonPipeline(
            plans: [button, counter, .raw, .raw],
            encoders: [EncoderPlan(lineA: 2, lineB: 3, configuration: EncoderConfiguration(range: 0...20), initialPosition: 5, input: 2)],
            initialLevels: [.high, .high, .high, .high], atNs: 0, reportsEdges: false)
    }

    /// A pulse on line 1 from `onsetNs`, decided 10 ms later.
    static func pulse(_ pipeline: inout ButtonPipeline, at onsetNs: Int64, into outputs: inout [PipelineOutput]) {
        pipeline.receive(LineEdge(line: 1, edge: Edge(level: .low, timeNs: onsetNs)), into: &outputs)
        pipeline.receive(LineEdge(line: 1, edge: Edge(level: .high, timeNs: onsetNs + 30 * ms)), into: &outputs)
        _ = pipeline.advance(toNs: onsetNs + 100 * ms, into: &outputs)
    }

    @Test func aCountersTotalIsSetAndTheNextPulseCountsFromItWithItsRateKept() {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        Self.pulse(&pipeline, at: 1_000 * Self.ms, into: &outputs)
        Self.pulse(&pipeline, at: 2_000 * Self.ms, into: &outputs)
        outputs.removeAll()
        #expect(pipeline.apply(.reset(input: 1, to: 7), atNs: 2_500 * Self.ms, into: &outputs))
        guard case .totalReset(let source, let reset)? = outputs.first, outputs.count == 1 else {
            Issue.record("one totalReset: \(outputs)")
            return
        }
        #expect(source == OutputSource(input: 1, line: 1))
        #expect(reset == CounterReading(rate: 3600, ratePerMinute: 60, timeNs: 2_500 * Self.ms, total: 7), "the rate of the last interval (1 s: 3600 W) is kept")
        outputs.removeAll()
        Self.pulse(&pipeline, at: 3_000 * Self.ms, into: &outputs)
        let totals = outputs.compactMap { if case .count(_, let pulse) = $0 { pulse.total } else { nil } }
        #expect(totals == [8])
    }

    @Test func aNegativeTotalIsZero() {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        #expect(pipeline.apply(.reset(input: 1, to: -3), atNs: 0, into: &outputs))
        let totals: [Int64] = outputs.compactMap { if case .totalReset(_, let reset) = $0 { reset.total } else { nil } }
        #expect(totals == [0])
    }

    @Test func anEncodersPositionIsSetClampedIntoItsRange() {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        #expect(pipeline.apply(.reset(input: 2, to: 12), atNs: 5, into: &outputs))
        #expect(pipeline.apply(.reset(input: 2, to: 99), atNs: 6, into: &outputs))
        #expect(pipeline.apply(.reset(input: 2, to: .min), atNs: 7, into: &outputs))
        let positions = outputs.compactMap { if case .positionReset(let source, let position, let atNs) = $0, source == OutputSource(input: 2, line: 2) { [position, Int(atNs)] } else { nil } }
        #expect(positions == [[12, 5], [20, 6], [0, 7]])
        #expect(pipeline.decoder(encoder: 0).position == 0)
    }

    @Test func aButtonOrAnUnknownInputTakesNothing() {
        var pipeline = Self.pipeline()
        var outputs: [PipelineOutput] = []
        #expect(!pipeline.apply(.reset(input: 0, to: 1), atNs: 0, into: &outputs))
        #expect(!pipeline.apply(.reset(input: 9, to: 1), atNs: 0, into: &outputs))
        #expect(outputs.isEmpty)
    }
}
