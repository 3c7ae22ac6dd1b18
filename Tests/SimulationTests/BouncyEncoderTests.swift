import DebounceCore
import EventLoop
import LineInput
import Pipeline
import Simulation
import Testing

/// The simulated encoder: Gray-code steps with bounce on the changing line only, as its ground truth says.
@Suite struct BouncyEncoderTests {
    /// +1 for a clockwise step between neighbouring (A,B) states, -1 for a counter-clockwise one.
    static func step(from old: UInt8, to new: UInt8) -> Int {
        let order: [UInt8] = [0b11, 0b01, 0b00, 0b10]
        guard let from = order.firstIndex(of: old), let to = order.firstIndex(of: new) else { return 0 }
        switch (to - from + 4) % 4 {
        case 1: return 1
        case 3: return -1
        default: return 0
        }
    }

    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func stepsAddUpToTheDetentsTurned(seed: UInt64) {
        var encoder = BouncyEncoder(seed: seed, gestures: 40, recordsDetents: true)
        var state: UInt8 = 0b11
        var steps = 0
        var previousNs = Int64.min
        var levels: [Level] = BouncyEncoder.initialLevels
        while let lineEdge = encoder.next() {
            #expect(lineEdge.edge.timeNs > previousNs, "strictly in time order")
            previousNs = lineEdge.edge.timeNs
            #expect(lineEdge.edge.level != levels[lineEdge.line], "each line alternates")
            levels[lineEdge.line] = lineEdge.edge.level
            let bit: UInt8 = lineEdge.line == 0 ? 0b10 : 0b01
            let new = lineEdge.edge.level == .high ? state | bit : state & ~bit
            let step = Self.step(from: state, to: new)
            #expect(step != 0, "one line changes at a time: always a neighbouring state")
            steps += step
            state = new
        }
        let detents = encoder.takeDetents()
        let net = detents.reduce(0) { $0 + ($1.clockwise ? 1 : -1) }
        #expect(steps == 4 * net)
        #expect(state == 0b11, "at rest between gestures")
        #expect(detents.contains { $0.clockwise } && detents.contains { !$0.clockwise })
        #expect(detents.allSatisfy { $0.firstEdgeNs < $0.lastEdgeNs })
    }

    @Test func simulatedLinesPlayBothLinesInTimeOrder() {
        var truth = BouncyEncoder(seed: 7, gestures: 10)
        var expected: [LineEdge] = []
        while let lineEdge = truth.next() { expected.append(lineEdge) }
        let lines = SimulatedLines(encoder: BouncyEncoder(seed: 7, gestures: 10))
        #expect(lines.lineCount == 2)
        var batch = EdgeBatch()
        lines.deliverDue(byNs: .max, into: &batch)
        #expect(batch.edges == expected)
        #expect(lines.isExhausted)
    }

    /// An encoder played for a long time (`run --simulate`, `watch --simulate`) keeps none of the
    /// detents it turned: its memory does not grow with the gestures played.
    @Test func anEncoderPlayedForLongKeepsNoDetents() {
        var encoder = BouncyEncoder(seed: 5, gestures: 5_000)
        var edges = 0
        while encoder.next() != nil { edges += 1 }
        #expect(edges > 100_000)
        #expect(encoder.detents.count == 0)
        var recording = BouncyEncoder(seed: 5, gestures: 50, recordsDetents: true)
        while recording.next() != nil {}
        #expect(recording.detents.count > 100)
    }
}
