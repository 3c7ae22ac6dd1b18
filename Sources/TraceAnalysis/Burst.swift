import DebounceCore

/// A burst's edges and levels, however they are kept: what the window search and the analysis read.
/// `Burst` holds its edges in an array; `StoredBurst` reads them from an `EdgeStore`.
package protocol EdgeBurst {
    associatedtype Edges: Sequence<Edge>
    /// The edges of the burst, in time order (may be read more than once).
    var edges: Edges { get }
    /// How many edges the burst has.
    var edgeCount: Int { get }
    /// The level before the burst.
    var levelBefore: Level { get }
    /// The level after the burst's last edge.
    var levelAfter: Level { get }
    /// The first edge's time, in nanoseconds.
    var startNs: Int64 { get }
    /// The last edge's time, in nanoseconds.
    var endNs: Int64 { get }
}

extension EdgeBurst {
    /// Last edge minus first edge, in nanoseconds (0 for one clean edge).
    package var lengthNs: Int64 { endNs &- startNs }
}

/// One transition of a recorded trace: a burst of edges separated from the next by a quiet gap.
package struct Burst: EdgeBurst, Sendable, Hashable {
    /// The edges of the burst, in time order.
    package var edges: [Edge]
    /// The level before the burst.
    package var levelBefore: Level
    /// How many edges the burst has.
    package var edgeCount: Int { edges.count }
    /// The level after the burst's last edge.
    package var levelAfter: Level { edges.last?.level ?? levelBefore }
    /// The first edge's time, in nanoseconds.
    package var startNs: Int64 { edges.first?.timeNs ?? 0 }
    /// The last edge's time, in nanoseconds.
    package var endNs: Int64 { edges.last?.timeNs ?? 0 }

    package init(edges: [Edge], levelBefore: Level) {
        self.edges = edges
        self.levelBefore = levelBefore
    }
}
