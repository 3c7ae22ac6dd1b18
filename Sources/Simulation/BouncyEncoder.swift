import DebounceCore
import Pipeline

/// One detent a simulated person turned a `BouncyEncoder` by: the ground truth a decoder should recover.
package struct PhysicalDetent: Sendable, Hashable {
    /// `true` clockwise (A leads), `false` anticlockwise.
    package var clockwise: Bool
    /// When the detent's first transition began, and when its last one settled, in nanoseconds.
    package var firstEdgeNs: Int64
    package var lastEdgeNs: Int64
}

/// A seeded, reproducible rotary encoder (a KY-040 or EC11 with 4 transitions per detent) that a
/// simulated person turns: slow runs, fast flicks (up to 500 detents per second), reversals, jiggles
/// (a turn started and taken back) and pauses, with bounce on the line that changes (never on
/// the other). The lines rest at 1 (pull-ups, switches open); clockwise, A leads:
/// (A,B) 11 → 01 → 00 → 10 → 11. Line 0 is A, line 1 is B. The same seed always gives the same edges.
///
/// It streams: each gesture's edges are generated when the previous gesture's have been played, and
/// only those are kept, so an endless encoder runs in constant memory. The detents turned (the ground
/// truth) are kept only when asked for (`recordsDetents`).
public struct BouncyEncoder: Sequence, IteratorProtocol, Sendable {
    /// The Gray-code states of one detent clockwise, from rest: (A, B) as two bits, A high.
    static let clockwiseStates: [UInt8] = [0b11, 0b01, 0b00, 0b10, 0b11]

    /// Detents turned so far (the generator's ground truth), oldest first, with `recordsDetents`;
    /// cleared by `takeDetents()`. Always empty without `recordsDetents`.
    package private(set) var detents: [PhysicalDetent] = []
    /// Whether `detents` keeps the detents turned. Off for an encoder played for a long time (`run`,
    /// `watch`): kept, they take about 24 bytes each, about 250 bytes a gesture.
    package let recordsDetents: Bool
    /// How many more gestures (runs, flicks, jiggles) to play; `nil` for endless.
    package private(set) var remainingGestures: Int?

    private var random: SplitMix64
    private var cursorNs: Int64
    private var state: UInt8 = 0b11
    private var pending: [LineEdge] = []
    private var pendingIndex = 0

    /// An encoder at rest whose first gesture starts after a pause from `startNs`; with
    /// `recordsDetents`, `detents` keeps every detent turned (for comparing a decoder with the truth).
    public init(seed: UInt64, startNs: Int64 = 0, gestures: Int? = nil, recordsDetents: Bool = false) {
        self.random = SplitMix64(seed: seed)
        self.recordsDetents = recordsDetents
        self.cursorNs = startNs
        self.remainingGestures = gestures
    }

    /// Both lines read 1 at rest.
    package static let initialLevels: [Level] = [.high, .high]

    /// The next edge of either line, in time order, or `nil` once `gestures` are played.
    public mutating func next() -> LineEdge? {
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            guard playGesture() else { return nil }
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// The detents turned since the last call (for tests comparing a decoder with the truth); always
    /// empty without `recordsDetents`.
    package mutating func takeDetents() -> [PhysicalDetent] {
        defer { detents.removeAll() }
        return detents
    }

    /// Plays a pause and one gesture into `pending`; `false` once every gesture is played.
    private mutating func playGesture() -> Bool {
        if let remaining = remainingGestures {
            guard remaining > 0 else { return false }
            remainingGestures = remaining - 1
        }
        cursorNs += Int64.random(in: 50_000_000...600_000_000, using: &random)
        let clockwise = Bool.random(using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<5:  // a run at a steady speed: 2 to 60 detents per second
            turn(detents: Int.random(in: 1...12, using: &random), clockwise: clockwise, perSecond: Double.random(in: 2...60, using: &random))
        case 5..<7:  // a flick: 100 to 500 detents per second
            turn(detents: Int.random(in: 5...40, using: &random), clockwise: clockwise, perSecond: Double.random(in: 100...500, using: &random))
        case 7..<9:  // a reversal: a run one way, then the other
            turn(detents: Int.random(in: 1...4, using: &random), clockwise: clockwise, perSecond: Double.random(in: 5...40, using: &random))
            turn(detents: Int.random(in: 1...4, using: &random), clockwise: !clockwise, perSecond: Double.random(in: 5...40, using: &random))
        default:  // a jiggle: one or two transitions into a detent, then back: no detent
            let steps = Int.random(in: 1...2, using: &random)
            let stepNs = Int64.random(in: 5_000_000...40_000_000, using: &random)
            for _ in 0..<steps { transition(clockwise: clockwise, stepNs: stepNs) }
            for _ in 0..<steps { transition(clockwise: !clockwise, stepNs: stepNs) }
        }
        return true
    }

    /// `count` whole detents in one direction at `perSecond` detents per second.
    private mutating func turn(detents count: Int, clockwise: Bool, perSecond: Double) {
        let stepNs = Swift.max(Int64(1e9 / perSecond / 4), 150_000)
        for _ in 0..<count {
            let firstNs = cursorNs + stepNs
            for _ in 0..<4 { transition(clockwise: clockwise, stepNs: stepNs) }
            if recordsDetents { detents.append(PhysicalDetent(clockwise: clockwise, firstEdgeNs: firstNs, lastEdgeNs: cursorNs)) }
        }
    }

    /// One transition to the neighbouring state, `stepNs` after the last one: the changing line's
    /// edge, then bounce on that line alone (pulses of at least 1 µs, over up to a third of the step
    /// and at most 1 ms), ending at the new level.
    private mutating func transition(clockwise: Bool, stepNs: Int64) {
        let index = Self.clockwiseStates.firstIndex(of: state) ?? 0
        let next = clockwise ? Self.clockwiseStates[index + 1] : Self.clockwiseStates[(index + 3) % 4]
        let line = (state ^ next) & 0b10 != 0 ? 0 : 1
        let level: Level = (next >> (1 - line)) & 1 == 1 ? .high : .low
        let startNs = cursorNs + stepNs
        pending.append(LineEdge(line: line, edge: Edge(level: level, timeNs: startNs)))
        var lastNs = startNs
        let bounceNs = Swift.min(stepNs / 3, 1_000_000)
        if bounceNs > 4_000, Int.random(in: 0..<4, using: &random) != 0 {
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let awayNs = lastNs + Int64.random(in: 1_000...(bounceNs / 4), using: &random)
                let backNs = awayNs + Int64.random(in: 1_000...(bounceNs / 4), using: &random)
                guard backNs < startNs + bounceNs else { break }
                pending.append(LineEdge(line: line, edge: Edge(level: level.toggled, timeNs: awayNs)))
                pending.append(LineEdge(line: line, edge: Edge(level: level, timeNs: backNs)))
                lastNs = backNs
            }
        }
        state = next
        cursorNs = lastNs
    }
}

extension SimulatedLines {
    /// A simulated bouncy encoder on lines 0 (A) and 1 (B).
    package convenience init(encoder: BouncyEncoder, startNs: Int64 = 0, dropProbability: Double = 0, seed: UInt64 = 0) {
        self.init(initialLevels: BouncyEncoder.initialLevels, script: encoder, startNs: startNs, dropProbability: dropProbability, seed: seed)
    }
}

extension SimulatedInput {
    /// A bouncy encoder on two lines, A then B, from its resting levels.
    package static func encoder(_ encoder: BouncyEncoder) -> SimulatedInput { .lines(initialLevels: BouncyEncoder.initialLevels, script: encoder) }
}
