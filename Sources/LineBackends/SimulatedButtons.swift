import DebounceCore

/// Several simulated buttons as one backend: line `i` is `BouncyButton` `i`, each with its own seed,
/// pressed independently, in virtual time or in real time (sleeping, never spinning, until the
/// earliest of the next edge of any button and the deadline).
public struct SimulatedButtons: LineBackend {
    private var lines: [SimulatedLine<BouncyButton>]
    private let pacing: SimulatedLine<BouncyButton>.Pacing
    private let realTimeOffsetNs: Int64
    public private(set) var nowNs: Int64

    public var lineCount: Int { lines.count }

    /// `count` buttons with seeds `seed`, `seed + 1`, ...; each pressed `presses` times (nil: forever).
    public init(count: Int, seed: UInt64, profile: BounceProfile = .typical, activeLevels: [ActiveLevel], presses: Int?, pacing: SimulatedLine<BouncyButton>.Pacing) {
        lines = (0..<count).map { index in
            let button = BouncyButton(profile: profile, seed: seed &+ UInt64(index), activeLevel: activeLevels[index], presses: presses)
            return SimulatedLine(initialLevel: button.initialLevel, edges: button, pacing: .virtual)
        }
        self.pacing = pacing
        self.realTimeOffsetNs = pacing == .realTime ? MonotonicClock.nowNs : 0
        self.nowNs = 0
    }

    public mutating func readLevel(line: Int) -> Level { lines[line].readLevel() }

    public mutating func wait(untilNs deadlineNs: Int64?, appendingTo edges: inout [LineEdge]) -> WaitOutcome {
        let nextEdgeNs = lines.compactMap(\.nextEdgeNs).min()
        let targetNs: Int64
        switch (nextEdgeNs, deadlineNs) {
        case (nil, nil): return .endOfInput
        case (let edge?, nil): targetNs = edge
        case (nil, let deadline?): targetNs = deadline
        case (let edge?, let deadline?): targetNs = min(edge, deadline)
        }
        if targetNs > nowNs {
            if pacing == .realTime { MonotonicClock.sleep(untilNs: targetNs + realTimeOffsetNs) }
            nowNs = targetNs
        }
        for index in lines.indices where (lines[index].nextEdgeNs ?? .max) <= nowNs {
            var lineEdges: [LineEdge] = []
            _ = lines[index].wait(untilNs: nowNs, appendingTo: &lineEdges)
            edges += lineEdges.map { LineEdge(line: index, edge: $0.edge) }
        }
        return edges.isEmpty ? .timedOut : .edges
    }
}
