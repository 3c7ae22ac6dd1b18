import DebounceCore
import EventLoop
import LineInput
import LinuxSys
import Pipeline
import Simulation
import Testing

/// The one loop, in virtual time: its wakeups, its limits, and when it reads a line's level again.
@Suite struct EventLoopTests {
    static let ms: Int64 = 1_000_000

    static func plan(_ strategy: DebounceStrategy) -> [LinePlan] { [LinePlan(debounce: DebounceConfiguration(both: strategy))] }

    /// One bouncy press and release with a long quiet time between: the loop wakes for edges and
    /// deadlines only, never for the quiet time, however long.
    @Test(arguments: [1 as Int64, 3_600])
    func wakeupsDoNotDependOnIdleTime(idleSeconds: Int64) throws {
        let pressNs: Int64 = 10 * Self.ms
        let releaseNs = pressNs + idleSeconds * 1_000 * Self.ms
        let script = [
            Edge(level: .low, timeNs: pressNs), Edge(level: .high, timeNs: pressNs + 100),
            Edge(level: .low, timeNs: pressNs + 300), Edge(level: .high, timeNs: releaseNs),
        ]
        let run = try VirtualRun.play(SimulatedLines(initialLevel: .high, script: script), plans: Self.plan(.defer(windowNs: 5 * Self.ms)))
        #expect(run.stop == .endOfInput)
        #expect(run.events.map(\.event.kind) == [.press, .release])
        // 4 edge wakeups (3 bounce + release) and 2 deadlines; the end of the script needs none.
        #expect(run.loop.wakeups == 6)
    }

    /// A clean eager press or release wakes the loop once, for its edge: the end of its lockout has
    /// nothing to report and is no wakeup (it was a second wakeup per edge, a millisecond after the event,
    /// competing with whoever reads the event for the processor).
    @Test func cleanEagerEdgesWakeTheLoopOnceEach() throws {
        let script = (0..<20).map { Edge(level: $0.isMultiple(of: 2) ? .low : .high, timeNs: Int64($0 + 1) * 50 * Self.ms) }
        let run = try VirtualRun.play(SimulatedLines(initialLevel: .high, script: script), plans: Self.plan(.eager(lockoutNs: Self.ms)))
        #expect(run.stop == .endOfInput)
        // Each release held 50 ms, from its press's edge.
        #expect(
            run.events.map(\.event)
                == script.map { ButtonEvent(kind: $0.level == .low ? .press : .release, timeNs: $0.timeNs, onsetNs: $0.timeNs, heldNs: $0.level == .low ? 0 : 50 * Self.ms) })
        #expect(run.loop.wakeups == 20)
    }

    /// With eight lines, clean eager edges taking turns (as `vm/bench` drives them) still wake the loop
    /// once each: no line's lockout end is a wakeup, whatever the other lines do.
    @Test func cleanEagerEdgesOnEightLinesWakeTheLoopOnceEach() throws {
        let scripts = (0..<8).map { line in
            (0..<10).map { turn in
                Edge(level: turn.isMultiple(of: 2) ? .low : .high, timeNs: Int64(turn * 8 + line + 1) * 25 * Self.ms)
            }
        }
        let lines = SimulatedLines(initialLevels: Array(repeating: .high, count: 8), scripts: scripts.map { $0.makeIterator() })
        let run = try VirtualRun.play(lines, plans: Self.plan(.eager(lockoutNs: Self.ms)))
        #expect(run.events.count == 80)
        #expect(run.loop.wakeups == 80)
    }

    /// A bounce that leaves the line changed within the lockout still gets its wakeup at the lockout's end.
    @Test func aChangeWithinTheLockoutIsReportedAtItsEnd() throws {
        let script = [Edge(level: .low, timeNs: 10 * Self.ms), Edge(level: .high, timeNs: 10 * Self.ms + 200_000)]
        let run = try VirtualRun.play(SimulatedLines(initialLevel: .high, script: script), plans: Self.plan(.eager(lockoutNs: Self.ms)))
        #expect(run.events.map(\.event) == [
            ButtonEvent(kind: .press, timeNs: 10 * Self.ms, onsetNs: 10 * Self.ms),
            ButtonEvent(kind: .release, timeNs: 11 * Self.ms, onsetNs: 10 * Self.ms + 200_000, heldNs: 200_000),
        ])
        // The two edges and the lockout's end; the new lockout after the release has nothing to report.
        #expect(run.loop.wakeups == 3)
    }

    /// A loop that yields after events hands over the CPU once per wakeup that reported events, and
    /// never for a wakeup that reported none (bounce the debouncer absorbed, a decision that settles).
    @Test func yieldsOncePerWakeupThatReportedEvents() throws {
        // A press bouncing three times, then a clean release: 6 edge wakeups, and 2 deadlines whose
        // decisions report the 2 events.
        let script = [
            Edge(level: .low, timeNs: 10 * Self.ms), Edge(level: .high, timeNs: 10 * Self.ms + 100_000),
            Edge(level: .low, timeNs: 10 * Self.ms + 300_000), Edge(level: .high, timeNs: 10 * Self.ms + 500_000),
            Edge(level: .low, timeNs: 10 * Self.ms + 700_000), Edge(level: .high, timeNs: 100 * Self.ms),
        ]
        for yields in [true, false] {
            let lines = SimulatedLines(initialLevel: .high, script: script)
            let loop = try EventLoop(clock: .virtual(), source: lines, plan: PipelinePlan(lines: Self.plan(.defer(windowNs: 5 * Self.ms))), sinks: [], yieldsAfterEvents: yields)
            #expect(try loop.run() == .endOfInput)
            #expect(loop.reportedEvents == 2)
            #expect(loop.wakeups == 8)
            #expect(loop.yields == (yields ? 2 : 0))
        }
    }

    /// Yielding is on by default only where it can help: a real clock and a single CPU to share.
    @Test func yieldingIsOnByDefaultOnlyOnASingleCPU() throws {
        let real = try EventLoop(clock: .realTime(), source: SimulatedLines(initialLevel: .high, script: []), plan: PipelinePlan(lines: Self.plan(.defer(windowNs: Self.ms))), sinks: [])
        #expect(real.yieldsAfterEvents == (Processor.allowedCount == 1))
        let virtual = try EventLoop(clock: .virtual(), source: SimulatedLines(initialLevel: .high, script: []), plan: PipelinePlan(lines: Self.plan(.defer(windowNs: Self.ms))), sinks: [])
        #expect(!virtual.yieldsAfterEvents)
    }

    @Test func stopsAfterMaximumEvents() throws {
        let run = try VirtualRun.play(
            SimulatedLines(buttons: [BouncyButton(seed: 1, presses: 10)]), plans: Self.plan(.defer(windowNs: 10 * Self.ms)),
            limits: LoopLimits(maximumEvents: 3))
        #expect(run.stop == .eventLimit)
        #expect(run.events.count == 3)
    }

    @Test func idleTimeoutEndsAQuietLine() throws {
        let script = [Edge(level: .low, timeNs: Self.ms), Edge(level: .high, timeNs: 100 * Self.ms)]
        let run = try VirtualRun.play(
            SimulatedLines(initialLevel: .high, script: script), plans: Self.plan(.eager(lockoutNs: Self.ms)),
            limits: LoopLimits(idleTimeoutNs: 50 * Self.ms))
        #expect(run.stop == .idleTimeout)
        #expect(run.events.map(\.event.kind) == [.press])
        #expect(run.loop.clock.nowNs == 51 * Self.ms)
    }

    /// The idle timeout waits for pending gestures instead of waking over and over once it is past.
    @Test func idleTimeoutWaitsForPendingGesturesWithoutSpinning() throws {
        let script = [Edge(level: .low, timeNs: Self.ms), Edge(level: .high, timeNs: 2_000 * Self.ms)]
        let plan = LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: Self.ms)), gestures: GestureConfiguration(holdNs: 500 * Self.ms))
        let run = try VirtualRun.play(SimulatedLines(initialLevel: .high, script: script), plans: [plan], limits: LoopLimits(idleTimeoutNs: 50 * Self.ms))
        #expect(run.stop == .idleTimeout)
        #expect(run.events.map(\.event.kind) == [.press, .hold])
        #expect(run.loop.wakeups <= 5, "\(run.loop.wakeups) wakeups")
    }

    @Test func eagerEventsCarryTheEdgeTimeNotTheWakeTime() throws {
        let run = try VirtualRun.play(
            SimulatedLines(initialLevel: .high, script: [Edge(level: .low, timeNs: 1_234)]), plans: Self.plan(.eager(lockoutNs: Self.ms)))
        #expect(run.events.map(\.event) == [ButtonEvent(kind: .press, timeNs: 1_234, onsetNs: 1_234)])
    }

    @Test func aLostEdgeIsRecoveredByReReadingTheLine() throws {
        // Every edge is lost: the line says so, and re-reading it finds the press.
        let run = try VirtualRun.play(
            SimulatedLines(initialLevel: .high, script: [Edge(level: .low, timeNs: Self.ms)], dropProbability: 1),
            plans: Self.plan(.defer(windowNs: Self.ms)))
        #expect(run.stop == .endOfInput)
        #expect(run.events.map(\.event.kind) == [.press])
        #expect(run.loop.pipeline.statistics(line: 0)?.resyncCorrections == 1)
        #expect(run.outputs.contains(.loss(line: 0, count: 1, atNs: Self.ms)))
    }

    /// The hot path: with no evidence of loss, the line's level is read once (at the start) and never
    /// again, however many decisions (the old loop read it before every decision it woke for).
    @Test(arguments: [DebounceStrategy.eager(lockoutNs: 30_000_000), .defer(windowNs: 10_000_000), .eager(lockoutNs: 30_000_000, glitchNs: 100_000)])
    func noLevelReadsWithoutEvidenceOfLoss(strategy: DebounceStrategy) throws {
        let counting = CountingSource(SimulatedLines(buttons: [BouncyButton(seed: 4, presses: 50)]))
        let loop = try EventLoop(clock: .virtual(), source: counting, plan: PipelinePlan(lines: Self.plan(strategy)), sinks: [])
        #expect(try loop.run() == .endOfInput)
        #expect(loop.pipeline.statistics(line: 0)?.presses == 50)
        #expect(counting.levelReads == 1)
    }

    /// With lost edges the level is read again, and only on lines that showed a loss.
    @Test func levelReadsOnlyFollowEvidenceOfLoss() throws {
        let lines = SimulatedLines(buttons: [BouncyButton(seed: 6, presses: 40)], dropProbability: 0.2, seed: 9)
        let counting = CountingSource(lines)
        let loop = try EventLoop(clock: .virtual(), source: counting, plan: PipelinePlan(lines: Self.plan(.defer(windowNs: 10 * Self.ms))), sinks: [])
        #expect(try loop.run() == .endOfInput)
        let statistics = try #require(loop.pipeline.statistics(line: 0))
        #expect(statistics.presses == 40 && statistics.releases == 40)
        #expect(counting.levelReads > 1)
        #expect(counting.levelReads <= 1 + 2 * lines.droppedEdges[0])
    }
}

/// Wraps a source and counts the level reads the loop makes.
final class CountingSource: EdgeSource {
    let lines: SimulatedLines
    private(set) var levelReads = 0

    init(_ lines: SimulatedLines) { self.lines = lines }

    var lineCount: Int { lines.lineCount }
    var nextDueNs: Int64? { lines.nextDueNs }
    var isExhausted: Bool { lines.isExhausted }
    func readLevel(line: Int) -> Level {
        levelReads += 1
        return lines.readLevel(line: line)
    }
    func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) { lines.deliverDue(byNs: timeNs, into: &batch) }
    func lostEvents(line: Int) -> Int? { lines.lostEvents(line: line) }
}
