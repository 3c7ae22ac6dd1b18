import DebounceCore
import Pipeline
import Testing

/// Each line's start level, reconciled with the edges queued when it was read.
@Suite struct StartLevelsTests {
    static func edge(_ line: Int, _ level: Level, _ timeNs: Int64) -> LineEdge { LineEdge(line: line, edge: Edge(level: level, timeNs: timeNs)) }

    @Test func aLineWithNothingQueuedStartsAtTheLevelRead() {
        let start = StartLevels(read: [.low, .high], readNs: 100, queued: [])
        #expect(start.levels == [.low, .high])
        #expect(start.explainedLines.isEmpty)
        #expect(start.startNs == 100)
    }

    /// An edge stamped by the clock reading may be in the level read: the line starts at the level
    /// before it, whatever the read showed.
    @Test(arguments: [(Level.low, 90 as Int64), (.low, 100), (.high, 100)])
    func anEdgeByTheClockReadingSetsTheStartBeforeIt(levelRead: Level, edgeNs: Int64) {
        let start = StartLevels(read: [levelRead], readNs: 100, queued: [Self.edge(0, .low, edgeNs)])
        #expect(start.levels == [.high])
        #expect(start.explainedLines == (levelRead == .low ? [0] : []))
        #expect(start.startNs == edgeNs)
    }

    /// An edge stamped after the clock reading came after the read: the level read stands.
    @Test func anEdgeAfterTheClockReadingLeavesTheLevelRead() {
        let start = StartLevels(read: [.high], readNs: 100, queued: [Self.edge(0, .low, 101)])
        #expect(start.levels == [.high])
        #expect(start.startNs == 100)
    }

    /// Only each line's first queued edge decides; lines are independent.
    @Test func eachLinesFirstEdgeDecides() {
        let queued = [Self.edge(1, .high, 50), Self.edge(0, .low, 60), Self.edge(1, .low, 70), Self.edge(0, .high, 80)]
        let start = StartLevels(read: [.high, .low], readNs: 100, queued: queued)
        #expect(start.levels == [.high, .low])
        #expect(start.explainedLines.isEmpty)
        #expect(start.startNs == 50)
    }
}
