import DebounceCore

/// One transition of a recorded trace: a burst of edges separated from the next by a quiet gap.
public struct Burst: Sendable, Hashable {
    /// The edges of the burst, in time order.
    public var edges: [Edge]
    /// The level before the burst.
    public var levelBefore: Level
    /// The level after the burst's last edge.
    public var levelAfter: Level { edges.last?.level ?? levelBefore }
    /// The first edge's time, in nanoseconds.
    public var startNs: Int64 { edges.first?.timeNs ?? 0 }
    /// The last edge's time, in nanoseconds.
    public var endNs: Int64 { edges.last?.timeNs ?? 0 }
    /// Last edge minus first edge, in nanoseconds (0 for one clean edge).
    public var lengthNs: Int64 { endNs - startNs }

    public init(edges: [Edge], levelBefore: Level) {
        self.edges = edges
        self.levelBefore = levelBefore
    }
}
