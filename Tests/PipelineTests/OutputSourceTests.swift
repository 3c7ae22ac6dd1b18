import DebounceCore
import Pipeline
import Testing

/// Every output a debounced line gives names its input (`LinePlan.input`) and the line; a line whose
/// plan gives no input is an input of its own.
@Suite struct OutputSourceTests {
    static let ms: Int64 = 1_000_000

    /// Line 0 a button held at the start (input 4), line 1 a contact (input 2), line 2 a counter (input
    /// 2 too: two lines of one input), line 3 a button with no input; each pressed and let go.
    @Test func eachOutputNamesItsInputAndLine() {
        let debounce = DebounceConfiguration(both: .defer(windowNs: 5 * Self.ms))
        let plans = [
            LinePlan(debounce: debounce, input: 4), LinePlan(debounce: debounce, role: .contact(ContactConfiguration()), input: 2),
            LinePlan(debounce: debounce, role: .counter(initialTotal: 0), input: 2), LinePlan(debounce: debounce),
        ]
        var pipeline = ButtonPipeline(plans: plans, initialLevels: [.low, .high, .high, .high], atNs: 0)
        var outputs: [PipelineOutput] = []
        for line in 0..<4 {
            let start = Int64(line) * 100 * Self.ms
            for (level, timeNs) in [(Level.low, start + 10 * Self.ms), (.high, start + 50 * Self.ms)] where !(line == 0 && level == .low) {
                _ = pipeline.advance(toNs: timeNs, into: &outputs)
                pipeline.receive(LineEdge(line: line, edge: Edge(level: level, timeNs: timeNs)), into: &outputs)
            }
        }
        _ = pipeline.advance(toNs: 1_000 * Self.ms, into: &outputs)
        let named: [String] = outputs.compactMap { output in
            switch output {
            case .buttonState(let source, _, _): "state \(source.input)/\(source.line)"
            case .event(let source, let event): "\(event.kind) \(source.input)/\(source.line)"
            case .contact(let source, let change): "\(change.isOn ? "on" : "off") \(source.input)/\(source.line)"
            case .count(let source, let count): "pulse \(count.total) \(source.input)/\(source.line)"
            default: nil
            }
        }
        #expect(named == ["state 4/0", "on 2/1", "off 2/1", "pulse 1 2/2", "press 3/3", "release 3/3"])
    }
}
