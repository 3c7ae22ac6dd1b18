import DebounceCore
import LineBackends
import Testing

@Suite struct DebounceLoopTests {
    static let ms: Int64 = 1_000_000

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
        var loop = try DebounceLoop(line: SimulatedLine(initialLevel: .high, script: script), configuration: .init(both: .defer(windowNs: 5 * Self.ms)))
        var events: [ButtonEvent] = []
        #expect(try loop.run(onEvent: { events.append($0.event) }) == .endOfInput)
        #expect(events.map(\.kind) == [.press, .release])
        // 4 edge wakeups (3 bounce + release), 2 deadlines, 1 end of input.
        #expect(loop.wakeups == 7)
    }

    @Test func stopsAfterMaximumEvents() throws {
        var loop = try DebounceLoop(
            line: SimulatedLine(initialLevel: .high, edges: BouncyButton(seed: 1, presses: 10)),
            configuration: .init())
        var count = 0
        #expect(try loop.run(maximumEvents: 3, onEvent: { _ in count += 1 }) == .eventLimit)
        #expect(count == 3)
    }

    @Test func idleTimeoutEndsAQuietLine() throws {
        let script = [Edge(level: .low, timeNs: Self.ms), Edge(level: .high, timeNs: 100 * Self.ms)]
        var loop = try DebounceLoop(line: SimulatedLine(initialLevel: .high, script: script), configuration: .init(both: .eager(lockoutNs: Self.ms)))
        var events: [ButtonEvent] = []
        #expect(try loop.run(idleTimeoutNs: 50 * Self.ms, onEvent: { events.append($0.event) }) == .idleTimeout)
        #expect(events.map(\.kind) == [.press])
        #expect(loop.line.nowNs == 51 * Self.ms)
    }

    @Test func eagerEventsCarryTheEdgeTimeNotTheWakeTime() throws {
        var loop = try DebounceLoop(
            line: SimulatedLine(initialLevel: .high, script: [Edge(level: .low, timeNs: 1_234)]),
            configuration: .init(both: .eager(lockoutNs: Self.ms)))
        var events: [ButtonEvent] = []
        _ = try loop.run(onEvent: { events.append($0.event) })
        #expect(events == [ButtonEvent(kind: .press, timeNs: 1_234, onsetNs: 1_234)])
    }

    @Test func aLostReleaseIsRecoveredByReReadingTheLine() throws {
        // Every edge is lost: only re-reading the line at the end can find the press.
        var loop = try DebounceLoop(
            line: SimulatedLine(initialLevel: .high, script: [Edge(level: .low, timeNs: Self.ms)], dropProbability: 1),
            configuration: .init(both: .defer(windowNs: Self.ms)))
        var events: [ButtonEvent] = []
        #expect(try loop.run(onEvent: { events.append($0.event) }) == .endOfInput)
        #expect(events.map(\.kind) == [.press])
        #expect(loop.debouncer.statistics.resyncCorrections == 1)
    }
}
