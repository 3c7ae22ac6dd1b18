import DebounceCore
import Testing

/// Table-driven edge cases that marble strings cannot draw: equal timestamps, time going backwards,
/// duplicate edges, lost edges, and times near the end of `Int64`.
@Suite struct EdgeCaseTests {
    static let ms: Int64 = 1_000_000

    /// Feeds `edges` (each followed by `advance` to its time, as a driver does) and then `finish()`.
    static func run(_ config: DebounceConfiguration, initial: Level = .high, _ edges: [(Int64, Level)]) -> (
        events: [ButtonEvent], debouncer: Debouncer
    ) {
        var debouncer = Debouncer(configuration: config, initialLevel: initial)
        var events: [ButtonEvent] = []
        for (timeNs, level) in edges {
            if let event = debouncer.receive(Edge(level: level, timeNs: timeNs)) { events.append(event) }
            if let event = debouncer.advance(toNs: timeNs) { events.append(event) }
        }
        if let event = debouncer.finish() { events.append(event) }
        return (events, debouncer)
    }

    @Test func edgesAtOneInstantAreAllAppliedBeforeTheDecision() {
        // A down-up pair stamped at the same nanosecond: eager with no glitch window must not press.
        var debouncer = Debouncer(configuration: .init(both: .eager(lockoutNs: 5 * Self.ms)), initialLevel: .high)
        #expect(debouncer.receive(Edge(level: .low, timeNs: 100)) == nil)
        #expect(debouncer.receive(Edge(level: .high, timeNs: 100)) == nil)
        #expect(debouncer.advance(toNs: 100) == nil)
        #expect(debouncer.finish() == nil)
        #expect(!debouncer.isPressed)
    }

    @Test func eagerPressIsStampedWithTheEdgeTimeWhateverTheDriverLatency() {
        var debouncer = Debouncer(configuration: .init(both: .eager(lockoutNs: 5 * Self.ms)), initialLevel: .high)
        #expect(debouncer.receive(Edge(level: .low, timeNs: 1_000)) == nil)
        #expect(debouncer.nextDeadlineNs == 1_000)
        // The driver got round to it 70 µs later.
        #expect(debouncer.advance(toNs: 71_000) == ButtonEvent(kind: .press, timeNs: 1_000, onsetNs: 1_000))
        #expect(debouncer.nextDeadlineNs == 1_000 + 5 * Self.ms)
    }

    @Test func oneDeadlinePerBurstNotOneTimerPerEdge() {
        var debouncer = Debouncer(configuration: .init(both: .defer(windowNs: 5 * Self.ms)), initialLevel: .high)
        var deadlines: Set<Int64?> = []
        for i in 0..<40 {
            _ = debouncer.receive(Edge(level: i % 2 == 0 ? .low : .high, timeNs: Int64(i) * 10_000))
            deadlines.insert(debouncer.nextDeadlineNs)
        }
        // Each edge moves the single deadline; there is never more than one.
        #expect(debouncer.nextDeadlineNs == 39 * 10_000 + 5 * Self.ms)
        #expect(deadlines.count == 40)
    }

    @Test func timestampsGoingBackwardsAreClampedAndCounted() {
        let (events, debouncer) = Self.run(
            .init(both: .defer(windowNs: 2 * Self.ms)),
            [(10 * Self.ms, .low), (9 * Self.ms, .high), (9 * Self.ms, .low)])
        // The two late edges count as stamped at 10 ms: the press is decided at 12 ms, onset 10 ms.
        #expect(events == [ButtonEvent(kind: .press, timeNs: 12 * Self.ms, onsetNs: 10 * Self.ms)])
        #expect(debouncer.statistics.clampedTimestamps == 2)
    }

    @Test func advanceBackwardsChangesNothing() {
        var debouncer = Debouncer(configuration: .init(both: .defer(windowNs: 2 * Self.ms)), initialLevel: .high)
        _ = debouncer.receive(Edge(level: .low, timeNs: 10 * Self.ms))
        #expect(debouncer.advance(toNs: 5 * Self.ms) == nil)
        #expect(debouncer.nowNs == 10 * Self.ms)
        #expect(debouncer.advance(toNs: 12 * Self.ms)?.kind == .press)
    }

    @Test func duplicateEdgeWhilePendingRestartsTheWindow() {
        // low at 0, (a high was lost), low again at 1 ms: the line moved, so the window restarts.
        let (events, debouncer) = Self.run(
            .init(both: .defer(windowNs: 2 * Self.ms)), [(0, .low), (1 * Self.ms, .low)])
        #expect(events == [ButtonEvent(kind: .press, timeNs: 3 * Self.ms, onsetNs: 0)])
        #expect(debouncer.statistics.duplicateEdges == 1)
    }

    @Test func duplicateEdgeWhileSettledIsIgnored() {
        let (events, debouncer) = Self.run(.init(both: .defer(windowNs: 2 * Self.ms)), [(0, .high), (Self.ms, .high)])
        #expect(events.isEmpty)
        #expect(debouncer.isSettled)
        #expect(debouncer.statistics.duplicateEdges == 2)
    }

    @Test func resyncRepairsALostFinalEdge() {
        // The release edge at 20 ms was lost; the driver re-reads the line once the burst settled.
        var debouncer = Debouncer(configuration: .init(both: .defer(windowNs: 2 * Self.ms)), initialLevel: .high)
        _ = debouncer.receive(Edge(level: .low, timeNs: 0))
        #expect(debouncer.advance(toNs: 2 * Self.ms)?.kind == .press)
        #expect(debouncer.resync(level: .high, atNs: 30 * Self.ms) == nil)
        #expect(debouncer.finish() == ButtonEvent(kind: .release, timeNs: 32 * Self.ms, onsetNs: 30 * Self.ms))
        #expect(debouncer.statistics.resyncCorrections == 1)
        #expect(!debouncer.isPressed)
    }

    @Test func resyncAgreeingWithTheEdgesChangesNothing() {
        var debouncer = Debouncer(configuration: .init(both: .defer(windowNs: 2 * Self.ms)), initialLevel: .high)
        #expect(debouncer.resync(level: .high, atNs: 5) == nil)
        #expect(debouncer.isSettled)
        #expect(debouncer.statistics.resyncCorrections == 0)
    }

    @Test func timesNearTheEndOfInt64DoNotOverflow() {
        let late = Int64.max - 10
        let (events, _) = Self.run(.init(both: .eager(lockoutNs: 5 * Self.ms)), [(late, .low), (late + 5, .high)])
        #expect(events.map(\.kind) == [.press, .release])
        #expect(events.last?.timeNs == .max)
    }

    @Test func initialLevelEmitsNothingAndSetsTheState() {
        let debouncer = Debouncer(configuration: .init(), initialLevel: .low)
        #expect(debouncer.isPressed)
        #expect(debouncer.isSettled)
    }
}
