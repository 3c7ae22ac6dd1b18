import DebounceCore
import Pipeline
import Testing

/// Code entry in the pipeline (`CodePlan`): the presses of a keypad's keys go to its collector after
/// each step, and a completed code follows the press that completed it, stamped with its time.
@Suite struct CodeEntryStageTests {
    static let ms: Int64 = 1_000_000
    static let keys: [Character] = ["1", "2", "3", "#"]

    static func pipeline(_ strategy: DebounceStrategy, configuration: CodeConfiguration = CodeConfiguration(minLength: 2)) -> ButtonPipeline {
        ButtonPipeline(
            plans: Array(repeating: LinePlan(debounce: DebounceConfiguration(both: strategy)), count: keys.count),
            codes: [CodePlan(input: 3, configuration: configuration, keys: keys.enumerated().map { CodePlan.KeyLine(line: $0.offset, key: $0.element) })],
            initialLevels: Array(repeating: .high, count: keys.count), atNs: 0, reportsEdges: false)
    }

    /// Presses `typed` (indices into `keys`) 100 ms apart, each held 50 ms, clean; every output.
    static func type(_ typed: [Int], into pipeline: inout ButtonPipeline, startNs: Int64 = 100 * ms) -> [PipelineOutput] {
        var outputs: [PipelineOutput] = []
        for (order, key) in typed.enumerated() {
            let downNs = startNs + Int64(order) * 100 * ms
            for edge in [Edge(level: .low, timeNs: downNs), Edge(level: .high, timeNs: downNs + 50 * ms)] {
                _ = pipeline.advance(toNs: edge.timeNs, into: &outputs)
                pipeline.receive(LineEdge(line: key, edge: edge), into: &outputs)
            }
        }
        _ = pipeline.advance(toNs: startNs + Int64(typed.count) * 100 * ms + 100 * ms, into: &outputs)
        return outputs
    }

    /// The codes among `outputs`, each read from `pipeline` by its mark.
    static func codes(_ outputs: [PipelineOutput], in pipeline: ButtonPipeline) -> [(source: OutputSource, code: EnteredCode)] {
        outputs.compactMap { output in
            guard case .code(let source, let mark) = output, let code = pipeline.enteredCode(mark) else { return nil }
            #expect(Int(mark.length) == code.code.count && mark.timeNs == code.timeNs)
            return (source, code)
        }
    }

    /// Eager presses are decided at their edge (in `receive`), deferred ones at a deadline (in
    /// `advance`): either way the code follows the end key's press, at its time.
    @Test(arguments: [DebounceStrategy.eager(lockoutNs: 5 * ms), .defer(windowNs: 10 * ms)])
    func aCodeFollowsTheEndKeysPress(strategy: DebounceStrategy) {
        var pipeline = Self.pipeline(strategy)
        let outputs = Self.type([0, 1, 2, 3], into: &pipeline)
        let codes = Self.codes(outputs, in: pipeline)
        // The code names its keypad's input and first key's line.
        #expect(codes.map(\.source) == [OutputSource(input: 3, line: 0)] && codes.map(\.code.code) == ["123"])
        guard let index = outputs.firstIndex(where: { if case .code = $0 { true } else { false } }) else { return }
        guard case .event(.line(3), let press) = outputs[index - 1] else {
            Issue.record("the code does not follow the end key's press: \(outputs)")
            return
        }
        #expect(press.kind == .press && codes[0].code.timeNs == press.timeNs)
    }

    /// Too short a code at the end key gives none; a pause longer than the timeout starts over.
    @Test func tooShortOrTooSlowGivesNoCode() {
        var pipeline = Self.pipeline(.eager(lockoutNs: 5 * Self.ms), configuration: CodeConfiguration(minLength: 3, timeoutNs: 1_000 * Self.ms))
        #expect(Self.codes(Self.type([0, 1, 3], into: &pipeline), in: pipeline).isEmpty)
        var slow = Self.pipeline(.eager(lockoutNs: 5 * Self.ms), configuration: CodeConfiguration(minLength: 3, timeoutNs: 1_000 * Self.ms))
        var outputs = Self.type([0, 1], into: &slow)
        outputs += Self.type([2, 3], into: &slow, startNs: 5_000 * Self.ms)
        #expect(Self.codes(outputs, in: slow).isEmpty)
        outputs = Self.type([0, 1, 2, 3], into: &slow, startNs: 10_000 * Self.ms)
        #expect(Self.codes(outputs, in: slow).map(\.code.code) == ["123"])
    }

    /// A code's text stays in the pipeline until the loop has handed it out; an output holds none
    /// (plain values: no output is reference counted as the loop hands it to the sinks).
    @Test func aCodesTextIsThePipelinesUntilItIsHandedOut() {
        #expect(_isPOD(PipelineOutput.self))
        var pipeline = Self.pipeline(.eager(lockoutNs: 5 * Self.ms))
        let outputs = Self.type([0, 1, 2, 3], into: &pipeline)
        #expect(pipeline.enteredCodes.map(\.code) == ["123"])
        pipeline.removeEnteredCodes()
        #expect(pipeline.enteredCodes.isEmpty && Self.codes(outputs, in: pipeline).isEmpty)
    }
}
