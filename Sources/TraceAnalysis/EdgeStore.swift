import DebounceCore

/// A whole trace's edges kept compactly, for the analyses that need more than one pass over them.
///
/// Each edge is its time minus the previous edge's time (zigzag-encoded, so a time going backwards
/// is kept too) and its level, in one `VariableLengthCode`: the first byte holds the level (bit 0),
/// 6 bits of the difference and a continuation bit, each further byte 7 bits and a continuation bit.
/// A difference under 64 ns takes 1 byte, under 8 µs 2, under 1 ms 3, under 134 ms 4, under 17 s 5
/// (a bouncy button's trace: about 3 bytes per edge, against 16 for an `Edge` in an array). The bytes
/// are kept in chunks of `chunkBytes`, so growing never copies the whole trace (no doubling peaks).
///
/// Reading is sequential: iterate the store, or a `StoredBurst` of it.
package struct EdgeStore: Sendable, Sequence {
    /// The size of one chunk of the code, in bytes (1 MiB).
    package static let chunkBytes = 1 << 20
    /// The longest code of one edge, in bytes (6 + 9 × 7 = 69 bits ≥ 64).
    static let maximumCodeBytes = VariableLengthCode.maximumBytes

    /// The code, in chunks; an edge's code never straddles two chunks.
    private(set) var chunks: [[UInt8]] = []
    /// How many edges the store holds.
    package private(set) var count = 0
    /// The first edge's time, in nanoseconds (0 while empty).
    package private(set) var firstNs: Int64 = 0
    /// The last edge's time, in nanoseconds (0 while empty).
    package private(set) var lastNs: Int64 = 0
    /// The last edge's level (`nil` while empty).
    package private(set) var lastLevel: Level?

    /// An empty store.
    package init() {}

    /// A store of `edges`, in their order.
    package init(_ edges: some Sequence<Edge>) {
        for edge in edges { append(edge) }
    }

    /// Whether the store holds no edge.
    package var isEmpty: Bool { count == 0 }

    /// The bytes the code takes (not counting the unused end of the last chunk).
    package var codeBytes: Int { chunks.reduce(0) { $0 + $1.count } }

    /// Adds `edge` after the last one.
    package mutating func append(_ edge: Edge) {
        let difference = edge.timeNs &- (count == 0 ? 0 : lastNs)
        if chunks.isEmpty || chunks[chunks.count - 1].count > Self.chunkBytes - Self.maximumCodeBytes {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(Self.chunkBytes)
            chunks.append(chunk)
        }
        VariableLengthCode.append(VariableLengthCode.zigzag(difference), flags: edge.level.rawValue, flagBits: 1, to: &chunks[chunks.count - 1])
        if count == 0 { firstNs = edge.timeNs }
        count += 1
        lastNs = edge.timeNs
        lastLevel = edge.level
    }

    /// Where an edge's code begins, and the time of the edge before it (for the difference).
    package struct Position: Sendable, Hashable {
        var chunk = 0
        var offset = 0
        var previousNs: Int64 = 0
    }

    package func makeIterator() -> Iterator { Iterator(store: self, position: Position(), remaining: count) }

    /// Reads edges in order from a position, `remaining` of them at most.
    package struct Iterator: IteratorProtocol {
        let chunks: [[UInt8]]
        /// The chunk being read (`chunks[position.chunk]`, or empty past the end).
        var chunk: [UInt8]
        /// Where the next edge's code begins.
        package private(set) var position: Position
        var remaining: Int

        init(store: EdgeStore, position: Position, remaining: Int) {
            self.chunks = store.chunks
            self.chunk = position.chunk < store.chunks.count ? store.chunks[position.chunk] : []
            self.position = position
            self.remaining = remaining
        }

        package mutating func next() -> Edge? {
            guard remaining > 0 else { return nil }
            if position.offset >= chunk.count {
                guard position.chunk + 1 < chunks.count else { return nil }
                position.chunk += 1
                position.offset = 0
                chunk = chunks[position.chunk]
            }
            remaining -= 1
            return chunk.withUnsafeBufferPointer { bytes in
                var levelBit: UInt8 = 0
                let difference = VariableLengthCode.unzigzag(VariableLengthCode.read(bytes, at: &position.offset, flagBits: 1, flags: &levelBit))
                let timeNs = position.previousNs &+ difference
                position.previousNs = timeNs
                return Edge(level: levelBit == 0 ? .low : .high, timeNs: timeNs)
            }
        }
    }

    /// `count` edges from `position` on (`count` is cut to what the store holds).
    func edges(from position: Position, count: Int) -> Iterator {
        Iterator(store: self, position: position, remaining: count)
    }
}
