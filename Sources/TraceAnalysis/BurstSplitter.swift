import DebounceCore

/// Splits a stream of edges into bursts: runs of edges in which no two neighbours are more than
/// `quietGapNs` apart. Feed edges in time order; a burst is handed out once a later edge (or the
/// end) shows it is over. Memory: one burst at a time, 16 bytes an edge (`analyze` reads its bursts
/// from an `EdgeStore` instead, as `StoredBursts`, which split the same way).
package struct BurstSplitter: Sendable {
    /// Edges further apart than this start a new burst, in nanoseconds.
    package let quietGapNs: Int64
    private var level: Level
    private var current: [Edge] = []
    private var levelBeforeCurrent: Level

    /// A splitter for a line that starts at `initialLevel`.
    package init(initialLevel: Level, quietGapNs: Int64) {
        self.quietGapNs = quietGapNs
        self.level = initialLevel
        self.levelBeforeCurrent = initialLevel
    }

    /// Adds one edge; returns the burst it ended, if it began a new one.
    package mutating func add(_ edge: Edge) -> Burst? {
        var finished: Burst?
        if let last = current.last, StoredBursts.isQuietGap(from: last.timeNs, to: edge.timeNs, quietGapNs: quietGapNs) {
            finished = Burst(edges: current, levelBefore: levelBeforeCurrent)
            current.removeAll(keepingCapacity: true)
            levelBeforeCurrent = level
        }
        current.append(edge)
        level = edge.level
        return finished
    }

    /// The last burst, at the end of the trace.
    package mutating func finish() -> Burst? {
        guard !current.isEmpty else { return nil }
        defer { current.removeAll() }
        return Burst(edges: current, levelBefore: levelBeforeCurrent)
    }
}
