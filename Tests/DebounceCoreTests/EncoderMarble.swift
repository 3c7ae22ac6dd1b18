import DebounceCore
import Testing

/// A marble language for rotary-encoder timelines: one character per tick (1 ms).
///
/// Two input lines, A and B: `-` high, `_` low; the first character is the initial level (no change);
/// every change of character is a change of that line at that tick, and changes of both lines at one
/// tick are one observation (a skipped state). A shorter line keeps its last level. The detents line:
/// `>` a clockwise detent, `<` a counter-clockwise one, at the tick of its `timeNs`; anything else is
/// "nothing", and trailing blanks are ignored.
///
/// Each timeline runs through three drivers, which must agree on every event: one that gives each
/// line's change (`receive(line:level:atNs:)`) and then advances to every tick, one that gives both
/// levels of a tick at once (`receive(a:b:atNs:)`), and one that never advances (observations are
/// applied by the next change, the last by `finish()`).
enum EncoderMarble {
    static let tickNs: Int64 = 1_000_000

    /// The levels a line stands for, one per tick.
    static func levels(_ line: String) -> [Level] {
        line.map { $0 == "_" ? Level.low : Level.high }
    }

    /// The level of `levels` at `tick` (the last one past the end).
    private static func level(_ levels: [Level], _ tick: Int) -> Level {
        levels[min(tick, levels.count - 1)]
    }

    /// The events of the timeline, from the first driver, and that driver's decoder after `finish()`;
    /// records an issue when the drivers disagree.
    static func run(
        _ a: String, _ b: String, _ configuration: EncoderConfiguration = EncoderConfiguration(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (events: [EncoderEvent], decoder: QuadratureDecoder) {
        let levelsA = levels(a), levelsB = levels(b)
        let ticks = max(levelsA.count, levelsB.count)
        var perLine = QuadratureDecoder(configuration: configuration, a: levelsA[0], b: levelsB[0])
        var sampled = perLine
        var lazy = perLine
        var events: [EncoderEvent] = [], sampledEvents: [EncoderEvent] = [], lazyEvents: [EncoderEvent] = []
        for tick in 1..<max(ticks, 1) {
            let timeNs = Int64(tick) * tickNs
            let nowA = level(levelsA, tick), nowB = level(levelsB, tick)
            for (line, now, before) in [(QuadratureDecoder.Line.a, nowA, level(levelsA, tick - 1)), (.b, nowB, level(levelsB, tick - 1))]
            where now != before {
                events += perLine.receive(line: line, level: now, atNs: timeNs)
                lazyEvents += lazy.receive(line: line, level: now, atNs: timeNs)
            }
            events += perLine.advance(toNs: timeNs)
            if nowA != level(levelsA, tick - 1) || nowB != level(levelsB, tick - 1) {
                sampledEvents += sampled.receive(a: nowA, b: nowB, atNs: timeNs)
            }
        }
        events += perLine.finish()
        sampledEvents += sampled.finish()
        lazyEvents += lazy.finish()
        #expect(events == sampledEvents, "per-line and sampled drivers disagree", sourceLocation: sourceLocation)
        #expect(events == lazyEvents, "advancing and lazy drivers disagree", sourceLocation: sourceLocation)
        #expect(perLine.statistics.lostSkips == sampled.statistics.lostSkips, sourceLocation: sourceLocation)
        return (events, perLine)
    }

    /// The detents line of `events`, or a description of an event that cannot be drawn.
    static func render(_ events: [EncoderEvent]) -> String {
        var marks: [Int: Character] = [:]
        for event in events {
            guard event.timeNs % tickNs == 0 else { return "event off the tick grid: \(event)" }
            let tick = Int(event.timeNs / tickNs)
            guard marks[tick] == nil else { return "two detents on tick \(tick): \(events)" }
            marks[tick] = event.direction == .clockwise ? ">" : "<"
        }
        return String((0..<((marks.keys.max() ?? -1) + 1)).map { marks[$0] ?? " " })
    }

    /// Asserts that lines `a` and `b` give exactly the `detents` line; returns the run for further checks.
    @discardableResult
    static func expect(
        a: String, b: String, detents: String, _ configuration: EncoderConfiguration = EncoderConfiguration(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (events: [EncoderEvent], decoder: QuadratureDecoder) {
        let run = run(a, b, configuration, sourceLocation: sourceLocation)
        let actual = render(run.events)
        let expected = String(detents.map { $0 == ">" || $0 == "<" ? $0 : " " }.reversed().drop(while: { $0 == " " }).reversed())
        #expect(
            actual == expected, "\nA:        \(a)\nB:        \(b)\nexpected: \(expected)\nactual:   \(actual)",
            sourceLocation: sourceLocation)
        return run
    }
}
