import DebounceCore
import EventLoop
import LineInput
import Pipeline
import Simulation
import Testing

/// `SimulatedLines(inputs:)`: each input on its own lines, in the order the caller lists them.
@Suite struct SimulatedInputTests {
    /// Every edge of `input` alone, each with its line shifted by `offset`.
    static func played(_ input: SimulatedInput, offset: Int) -> [LineEdge] {
        let lines = SimulatedLines(inputs: [input])
        var batch = EdgeBatch()
        lines.deliverDue(byNs: .max, into: &batch)
        return batch.edges.map { LineEdge(line: $0.line + offset, edge: $0.edge) }
    }

    @Test func anEncoderBetweenTwoContactsPlaysOnTheMiddleLines() {
        let first = BouncyButton(seed: 1, presses: 3)
        let encoder = BouncyEncoder(seed: 2, gestures: 3)
        let last = BouncyButton(profile: .reedContact, seed: 3, activeLevel: .activeHigh, presses: 3)
        let lines = SimulatedLines(inputs: [.contact(first), .encoder(encoder), .contact(last)])
        #expect(lines.lineCount == 4)
        #expect((0..<4).map { lines.readLevel(line: $0) } == [first.initialLevel] + BouncyEncoder.initialLevels + [last.initialLevel])
        var batch = EdgeBatch()
        lines.deliverDue(byNs: .max, into: &batch)
        let expected = Self.played(.contact(first), offset: 0) + Self.played(.encoder(encoder), offset: 1) + Self.played(.contact(last), offset: 3)
        #expect(batch.edges.count == expected.count)
        for line in 0..<4 {
            #expect(batch.edges.filter { $0.line == line } == expected.filter { $0.line == line }, "line \(line)")
        }
        #expect(lines.isExhausted)
    }
}
