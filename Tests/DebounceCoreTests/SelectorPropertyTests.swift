import DebounceCore
import PropertyBased
import Simulation
import Testing

/// A rotary selector (one line per position) turned at random, with bounce, against what the turns
/// were: exactly one select per move, at the settle time after the move's last edge, never an invalid.
@Suite struct SelectorPropertyTests {
    /// One move's edges, in time order: the old contact opens and the new one closes, each bouncing
    /// (an odd number of changes, so each ends where it goes), every change less than a third of
    /// `settleNs` after the one before, so that nothing in between holds.
    static func move(from old: Int, to new: Int, atNs startNs: Int64, settleNs: Int64, random: inout SplitMix64)
        -> [(line: Int, isActive: Bool, timeNs: Int64)]
    {
        var edges: [(line: Int, isActive: Bool, timeNs: Int64)] = []
        var timeNs = startNs
        for (line, goesActive) in [(old - 1, false), (new - 1, true)] {
            let changes = 2 * Int.random(in: 0...3, using: &random) + 1
            for change in 0..<changes {
                timeNs += Int64.random(in: 1...(settleNs / 3), using: &random)
                edges.append((line, change % 2 == 0 ? goesActive : !goesActive, timeNs))
            }
        }
        return edges
    }

    @Test func bouncyTurnsOfARotarySwitchGiveExactlyOneSelectPerMove() async {
        await propertyCheck(count: 300, input: Gen.uint64(), Gen.int64(in: 3_000_000...30_000_000)) { seed, settleNs in
            var random = SplitMix64(seed: seed)
            let lineCount = Int.random(in: 2...12, using: &random)
            let configuration = SelectorConfiguration(code: .oneHot, lineCount: lineCount, settleNs: settleNs)
            var position = Int.random(in: 1...lineCount, using: &random)
            var decoder = SelectorDecoder(configuration: configuration, activeLines: 1 << UInt32(position - 1), atNs: 0)
            var events: [SelectorEvent] = [], expected: [SelectorEvent] = []
            var timeNs: Int64 = 0
            for _ in 0..<20 {
                var next = Int.random(in: 1...lineCount, using: &random)
                if next == position { next = next % lineCount + 1 }
                let edges = Self.move(from: position, to: next, atNs: timeNs, settleNs: settleNs, random: &random)
                for edge in edges {
                    if let event = decoder.receive(line: edge.line, isActive: edge.isActive, atNs: edge.timeNs) { events.append(event) }
                }
                let lastNs = edges[edges.count - 1].timeNs
                expected.append(SelectorEvent(kind: .select(position: next, previous: position), timeNs: lastNs + settleNs, onsetNs: lastNs))
                timeNs = lastNs + settleNs + Int64.random(in: 0...settleNs, using: &random)
                if let event = decoder.advance(toNs: timeNs) { events.append(event) }
                position = next
            }
            #expect(events == expected)
            #expect(decoder.invalidReadings == 0 && decoder.position == position)
        }
    }
}
