import DebounceCore
import Simulation
import Testing

@testable import TraceAnalysis

/// `analyze` keeps a whole trace compactly (`EdgeStore`, `EventStore`, `CompactValues`) and reads its
/// bursts from the store: these check that nothing is lost or changed on the way, and that the store
/// is as small as its documentation says.
@Suite struct CompactStorageTests {
    /// Edges of every kind of difference: 0, small, huge, backwards, from `Int64.min` to `Int64.max`.
    static func awkwardEdges(count: Int, seed: UInt64) -> [Edge] {
        var random = SplitMix64(seed: seed)
        var edges: [Edge] = [Edge(level: .low, timeNs: .min), Edge(level: .high, timeNs: .max), Edge(level: .high, timeNs: .min)]
        var timeNs: Int64 = -1_000
        for _ in 0..<count {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: timeNs = timeNs &+ 0
            case 1: timeNs = timeNs &+ Int64.random(in: 1..<64, using: &random)
            case 2: timeNs = timeNs &+ Int64.random(in: 1..<50_000_000, using: &random)
            case 3: timeNs = timeNs &- Int64.random(in: 1..<1_000_000, using: &random)
            case 4: timeNs = Int64.random(in: .min ... .max, using: &random)
            default: timeNs = timeNs &+ Int64.random(in: 1..<(1 << 40), using: &random)
            }
            edges.append(Edge(level: Bool.random(using: &random) ? .high : .low, timeNs: timeNs))
        }
        return edges
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func anEdgeStoreGivesBackExactlyWhatItWasGiven(seed: UInt64) {
        let edges = Self.awkwardEdges(count: 20_000, seed: seed)
        let store = EdgeStore(edges)
        #expect(store.count == edges.count)
        #expect(Array(store) == edges)
        #expect(Array(store) == edges, "a second pass reads the same")
        #expect(store.firstNs == edges.first?.timeNs && store.lastNs == edges.last?.timeNs && store.lastLevel == edges.last?.level)
    }

    /// Past one chunk (1 MiB of code) the code goes on in the next, and no edge straddles two.
    @Test func anEdgeStoreSpansChunks() {
        let edges = Self.awkwardEdges(count: 400_000, seed: 9)
        let store = EdgeStore(edges)
        #expect(store.chunks.count > 1)
        #expect(store.chunks.allSatisfy { $0.count <= EdgeStore.chunkBytes })
        #expect(Array(store) == edges)
    }

    /// A bouncy button's trace takes about 3 bytes an edge (the documented figure), not 16.
    @Test func aButtonsTraceTakesAboutThreeBytesAnEdge() {
        let edges = Array(BouncyButton(profile: .noisy, seed: 4).prefix(200_000))
        let store = EdgeStore(edges)
        let bytesPerEdge = Double(store.codeBytes) / Double(store.count)
        #expect(bytesPerEdge < 4, "\(bytesPerEdge) bytes per edge")
        #expect(Array(store) == edges)
    }

    @Test func anEventStoreGivesBackExactlyWhatItWasGiven() {
        var random = SplitMix64(seed: 5)
        var events: [ButtonEvent] = []
        for _ in 0..<5_000 {
            let timeNs = Int64.random(in: .min ... .max, using: &random)
            let onsetNs = Bool.random(using: &random) ? timeNs : Int64.random(in: .min ... .max, using: &random)
            let kind = ButtonEvent.Kind.allCases.randomElement(using: &random) ?? .press
            events.append(ButtonEvent(kind: kind, timeNs: timeNs, onsetNs: onsetNs, count: Int.random(in: -2...9, using: &random)))
        }
        #expect(Array(EventStore(events)) == events)
        #expect(Array(EventStore([])) == [])
    }

    /// Percentiles by radix selection over the code agree with sorting, for small, huge and negative values.
    @Test(arguments: [1, 2, 7, 100, 5_001])
    func percentilesAgreeWithSorting(count: Int) {
        var random = SplitMix64(seed: UInt64(count))
        for range in [Int64(0)...Int64(200), 0...Int64.max, -5...Int64(1 << 40), Int64.min...Int64.max] {
            let values = (0..<count).map { _ in Int64.random(in: range, using: &random) }
            let sorted = values.sorted()
            func rank(_ fraction: Double) -> Int64 { sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)] }
            let percentiles = Percentiles(values)
            #expect(percentiles.median == rank(0.5) && percentiles.p90 == rank(0.9) && percentiles.maximum == sorted.last, "\(range)")
            var compact = CompactValues()
            for value in values { compact.append(value) }
            for index in [0, count / 3, count - 1] { #expect(compact.value(atRank: index) == sorted[index], "\(range) rank \(index)") }
        }
        #expect(Percentiles([]) == Percentiles())
    }

    /// The shared code: each number back as it was, with its flags, in as many bytes as its
    /// documentation says (7 bits a byte, fewer in the first by the flag bits), 10 at most.
    @Test(arguments: [0, 1])
    func theVariableLengthCodeGivesBackEveryNumberInItsLength(flagBits: Int) {
        let firstBits = 7 - flagBits
        let values: [UInt64] = [0, 1, (1 << firstBits) - 1, 1 << firstBits, 127, 128, 2_000_000, 1 << 62, .max - 1, .max]
        for (index, value) in values.enumerated() {
            let flags = UInt8(index % (1 << flagBits))
            var code: [UInt8] = []
            VariableLengthCode.append(value, flags: flags, flagBits: flagBits, to: &code)
            let significantBits = 64 - value.leadingZeroBitCount
            let expectedBytes = significantBits <= firstBits ? 1 : 1 + (significantBits - firstBits + 6) / 7
            #expect(code.count == expectedBytes, "\(value) with \(flagBits) flag bits")
            #expect(code.count <= VariableLengthCode.maximumBytes)
            var offset = 0
            var readFlags: UInt8 = 0
            #expect(VariableLengthCode.read(code, at: &offset, flagBits: flagBits, flags: &readFlags) == value)
            #expect(offset == code.count && readFlags == flags)
        }
        for value in [0, -1, 1, Int64.min, .max] { #expect(VariableLengthCode.unzigzag(VariableLengthCode.zigzag(value)) == value) }
        #expect([0, -1, 1, -2].map(VariableLengthCode.zigzag) == [0, 1, 2, 3])
    }
}
