#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore

/// A deterministic simulated GPIO line that plays a sequence of edges: a script with exact edge
/// times, a `BouncyButton`, or a recorded trace.
///
/// With `.virtual` pacing, time jumps straight to the next edge or deadline: a test of hours of
/// button presses runs in milliseconds and never sleeps. With `.realTime` pacing, the line sleeps
/// (never spins) until each edge is due, so a person can watch a demo.
///
/// `dropProbability` loses edges as an overflowing kernel event queue does: a lost edge still
/// changes the line's true level (what `readLevel(line:)` returns) but is never delivered.
public struct SimulatedLine<Edges: IteratorProtocol<Edge>>: LineBackend {
    /// How the line's clock runs.
    public enum Pacing: Sendable, Hashable {
        /// Time jumps; nothing sleeps.
        case virtual
        /// Time follows `CLOCK_MONOTONIC`, offset so that the line's time `startNs` is now.
        case realTime
    }

    public var lineCount: Int { 1 }
    public private(set) var nowNs: Int64
    /// Edges generated but lost (never delivered), as by a kernel queue overflow.
    public private(set) var droppedEdges = 0
    /// Edges delivered.
    public private(set) var deliveredEdges = 0

    private var edges: Edges
    private var upcoming: Edge?
    private var trueLevel: Level
    private let pacing: Pacing
    /// `CLOCK_MONOTONIC` minus line time, for `.realTime`.
    private let realTimeOffsetNs: Int64
    private let dropProbability: Double
    private var random: SplitMix64
    /// With `.realTime` pacing: a descriptor whose readability stops the line (`wait` returns `.interrupted`).
    public var stopDescriptor: Int32?
    private var stopped = false

    /// A line that reads `initialLevel` at `startNs` and then follows `edges`.
    public init(
        initialLevel: Level, startNs: Int64 = 0, edges: Edges, pacing: Pacing = .virtual,
        dropProbability: Double = 0, seed: UInt64 = 0
    ) {
        self.nowNs = startNs
        self.edges = edges
        self.trueLevel = initialLevel
        self.pacing = pacing
        self.realTimeOffsetNs = pacing == .realTime ? MonotonicClock.nowNs - startNs : 0
        self.dropProbability = dropProbability
        self.random = SplitMix64(seed: seed)
        self.upcoming = self.edges.next()
    }

    /// When the next scripted edge is due (lost or not), or `nil` once the script has ended.
    public var nextEdgeNs: Int64? { upcoming?.timeNs }

    /// The level the line really has now, lost edges included.
    public mutating func readLevel(line: Int = 0) -> Level { trueLevel }

    public mutating func wait(untilNs deadlineNs: Int64?, appendingTo delivered: inout [LineEdge]) -> WaitOutcome {
        while true {
            if stopped { return .interrupted }
            guard let edge = upcoming else {
                guard let deadlineNs else { return .endOfInput }
                advanceClock(to: deadlineNs)
                return .timedOut
            }
            if let deadlineNs, edge.timeNs > deadlineNs {
                advanceClock(to: deadlineNs)
                return stopped ? .interrupted : .timedOut
            }
            advanceClock(to: edge.timeNs)
            if stopped { return .interrupted }
            // Deliver every edge of this instant (and any stamped earlier, as a script may be).
            while let edge = upcoming, edge.timeNs <= nowNs {
                trueLevel = edge.level
                if dropProbability > 0, Double.random(in: 0..<1, using: &random) < dropProbability {
                    droppedEdges += 1
                } else {
                    delivered.append(LineEdge(line: 0, edge: edge))
                    deliveredEdges += 1
                }
                upcoming = edges.next()
            }
            if !delivered.isEmpty { return .edges }
        }
    }

    private mutating func advanceClock(to timeNs: Int64) {
        guard timeNs > nowNs else { return }
        if pacing == .realTime {
            if let stopDescriptor {
                // Sleep in poll on the stop descriptor, so that a stop request ends the sleep at once.
                while true {
                    let remainingNs = timeNs + realTimeOffsetNs - MonotonicClock.nowNs
                    guard remainingNs > 0 else { break }
                    var descriptor = pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0)
                    if poll(&descriptor, 1, Int32(min((remainingNs + 999_999) / 1_000_000, 1_000_000))) > 0 {
                        stopped = true
                        return
                    }
                }
            } else {
                MonotonicClock.sleep(untilNs: timeNs + realTimeOffsetNs)
            }
        }
        nowNs = timeNs
    }
}

extension SimulatedLine where Edges == IndexingIterator<[Edge]> {
    /// A line that plays a fixed script of edges.
    public init(initialLevel: Level, startNs: Int64 = 0, script: [Edge], pacing: Pacing = .virtual, dropProbability: Double = 0, seed: UInt64 = 0) {
        self.init(initialLevel: initialLevel, startNs: startNs, edges: script.makeIterator(), pacing: pacing, dropProbability: dropProbability, seed: seed)
    }
}
