import DebounceCore
import EventLoop
import LineInput
import Pipeline

/// Deterministic simulated GPIO lines, as an `EdgeSource`: each plays a sequence of edges (a script
/// with exact edge times, a `BouncyButton`, or a recorded trace), stamped on the loop's clock from
/// `startNs` on. Under a virtual `LoopClock`, hours of presses play in milliseconds; under a real one,
/// the loop sleeps in `ppoll` until each edge is due (never spinning).
///
/// `dropProbability` loses edges as an overflowing kernel event queue does: a lost edge still changes
/// the line's true level (what `readLevel(line:)` returns) but is never delivered; like libgpiod 2's
/// sequence numbers, the line says how many it lost, so the loop reads the level again.
package final class SimulatedLines: EdgeSource {
    /// Edges lost (never delivered), per line.
    package private(set) var droppedEdges: [Int]
    /// Edges delivered, per line.
    package private(set) var deliveredEdges: [Int]

    private var scripts: [any IteratorProtocol<Edge>]
    private var upcoming: [Edge?]
    private var trueLevels: [Level]
    /// Where each line's script times count from, on the loop's clock (lines added by a reload start later).
    private var startNs: [Int64]
    private let dropProbability: Double
    private var random: SplitMix64

    /// Lines that read `initialLevels[i]` at the start and then follow `scripts[i]`, whose times are
    /// counted from `startNs` on the loop's clock.
    package init(
        initialLevels: [Level], scripts: [any IteratorProtocol<Edge>], startNs: Int64 = 0, dropProbability: Double = 0, seed: UInt64 = 0
    ) {
        precondition(initialLevels.count == scripts.count, "one initial level per script")
        self.scripts = scripts
        self.trueLevels = initialLevels
        self.startNs = Array(repeating: startNs, count: scripts.count)
        self.dropProbability = dropProbability
        self.random = SplitMix64(seed: seed)
        self.droppedEdges = Array(repeating: 0, count: scripts.count)
        self.deliveredEdges = Array(repeating: 0, count: scripts.count)
        self.upcoming = []
        for index in self.scripts.indices { upcoming.append(self.scripts[index].next()) }
    }

    /// One line playing a fixed script of edges.
    package convenience init(initialLevel: Level, script: [Edge], startNs: Int64 = 0, dropProbability: Double = 0, seed: UInt64 = 0) {
        self.init(initialLevels: [initialLevel], scripts: [script.makeIterator()], startNs: startNs, dropProbability: dropProbability, seed: seed)
    }

    /// Simulated bouncy buttons, one per line.
    package convenience init(buttons: [BouncyButton], startNs: Int64 = 0, dropProbability: Double = 0, seed: UInt64 = 0) {
        self.init(initialLevels: buttons.map(\.initialLevel), scripts: buttons, startNs: startNs, dropProbability: dropProbability, seed: seed)
    }

    package var lineCount: Int { scripts.count }

    /// When the next scripted edge of any line is due (lost or not), on the loop's clock.
    package var nextDueNs: Int64? {
        var earliest: Int64?
        for (line, edge) in upcoming.enumerated() {
            guard let edge else { continue }
            let dueNs = stamped(edge, line: line)
            earliest = min(earliest ?? dueNs, dueNs)
        }
        return earliest
    }

    /// Whether every script has ended.
    package var isExhausted: Bool { upcoming.allSatisfy { $0 == nil } }

    /// The level the line really has now, lost edges included.
    package func readLevel(line: Int) -> Level { trueLevels[line] }

    package func lostEvents(line: Int) -> Int? { droppedEdges[line] }

    /// Every edge due by `timeNs`, in time order across lines; lost edges are counted per line.
    package func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) {
        while true {
            var next: Int?
            for index in upcoming.indices {
                guard let edge = upcoming[index], stamped(edge, line: index) <= timeNs else { continue }
                if let best = next, let bestEdge = upcoming[best], stamped(bestEdge, line: best) <= stamped(edge, line: index) { continue }
                next = index
            }
            guard let line = next, let edge = upcoming[line] else { return }
            trueLevels[line] = edge.level
            if dropProbability > 0, Double.random(in: 0..<1, using: &random) < dropProbability {
                droppedEdges[line] += 1
                batch.losses.append((line: line, count: 1))
            } else {
                batch.edges.append(LineEdge(line: line, edge: Edge(level: edge.level, timeNs: stamped(edge, line: line))))
                deliveredEdges[line] += 1
            }
            upcoming[line] = scripts[line].next()
        }
    }

    /// Takes over lines of `previous` (a reload): line `i` goes on with `previous`'s line
    /// `previousLine[i]` where it was (its script, its next edge, its true level, its counts), or, where
    /// that is `nil`, is `fresh`'s line `i` (an added or changed input, its script counted from `fresh`'s
    /// start). `previous` must not be read from afterwards.
    package init(continuing previous: SimulatedLines, previousLine: [Int?], fresh: SimulatedLines) {
        precondition(previousLine.count == fresh.lineCount, "one entry per line")
        func pick<T>(_ mine: [T], _ theirs: [T]) -> [T] { previousLine.enumerated().map { line, old in old.map { theirs[$0] } ?? mine[line] } }
        scripts = pick(fresh.scripts, previous.scripts)
        upcoming = pick(fresh.upcoming, previous.upcoming)
        trueLevels = pick(fresh.trueLevels, previous.trueLevels)
        startNs = pick(fresh.startNs, previous.startNs)
        droppedEdges = pick(fresh.droppedEdges, previous.droppedEdges)
        deliveredEdges = pick(fresh.deliveredEdges, previous.deliveredEdges)
        dropProbability = fresh.dropProbability
        random = fresh.random
    }

    private func stamped(_ edge: Edge, line: Int) -> Int64 {
        let (sum, overflow) = startNs[line].addingReportingOverflow(edge.timeNs)
        return overflow ? (edge.timeNs > 0 ? .max : .min) : sum
    }
}
