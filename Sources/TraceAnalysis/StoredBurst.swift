import DebounceCore

/// A burst read from an `EdgeStore`: where its edges begin, how many, and its levels and times. It
/// holds no edges of its own (a view, a few words), so a storm of a million edges costs nothing more.
package struct StoredBurst: EdgeBurst, Sendable {
    /// The burst's edges, decoded from the store each time they are read.
    package struct Edges: Sequence, Sendable {
        let store: EdgeStore
        let position: EdgeStore.Position
        let count: Int
        package func makeIterator() -> EdgeStore.Iterator { store.edges(from: position, count: count) }
    }

    package let edges: Edges
    package var edgeCount: Int { edges.count }
    package let levelBefore: Level
    package let levelAfter: Level
    /// The first edge's time, in nanoseconds.
    package let startNs: Int64
    /// The last edge's time, in nanoseconds.
    package let endNs: Int64

    /// The burst as a `Burst`, its edges in an array (16 bytes each).
    package var materialized: Burst { Burst(edges: Array(edges), levelBefore: levelBefore) }
}

/// The bursts of an `EdgeStore`: runs of edges in which no two neighbours are more than `quietGapNs`
/// apart, split as `BurstSplitter` splits. Each iteration reads the store again (one pass, no copies).
package struct StoredBursts: Sequence, Sendable {
    /// The edges, the initial level's edge not among them.
    package let store: EdgeStore
    /// The level before the first edge.
    package let initialLevel: Level
    /// Edges further apart than this start a new burst, in nanoseconds.
    package let quietGapNs: Int64

    package init(store: EdgeStore, initialLevel: Level, quietGapNs: Int64) {
        self.store = store
        self.initialLevel = initialLevel
        self.quietGapNs = quietGapNs
    }

    package func makeIterator() -> Iterator {
        Iterator(bursts: self, edges: store.makeIterator(), levelBefore: initialLevel)
    }

    /// Whether an edge at `laterNs` after one at `earlierNs` starts a new burst (no overflow, whatever the times).
    @inline(__always)
    static func isQuietGap(from earlierNs: Int64, to laterNs: Int64, quietGapNs: Int64) -> Bool {
        let (difference, overflow) = laterNs.subtractingReportingOverflow(earlierNs)
        return overflow ? laterNs > earlierNs : difference > quietGapNs
    }

    package struct Iterator: IteratorProtocol {
        let bursts: StoredBursts
        var edges: EdgeStore.Iterator
        var levelBefore: Level
        /// The first edge of the next burst, already read, and where its code begins.
        var pending: (edge: Edge, position: EdgeStore.Position)?

        init(bursts: StoredBursts, edges: EdgeStore.Iterator, levelBefore: Level) {
            self.bursts = bursts
            self.edges = edges
            self.levelBefore = levelBefore
        }

        package mutating func next() -> StoredBurst? {
            let first: Edge
            let position: EdgeStore.Position
            if let pending {
                (first, position) = pending
                self.pending = nil
            } else {
                let before = edges.position
                guard let edge = edges.next() else { return nil }
                (first, position) = (edge, before)
            }
            var last = first
            var count = 1
            while true {
                let before = edges.position
                guard let edge = edges.next() else { break }
                if StoredBursts.isQuietGap(from: last.timeNs, to: edge.timeNs, quietGapNs: bursts.quietGapNs) {
                    pending = (edge, before)
                    break
                }
                last = edge
                count += 1
            }
            let burst = StoredBurst(
                edges: .init(store: bursts.store, position: position, count: count), levelBefore: levelBefore,
                levelAfter: last.level, startNs: first.timeNs, endNs: last.timeNs)
            levelBefore = last.level
            return burst
        }
    }
}
