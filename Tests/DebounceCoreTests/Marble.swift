import DebounceCore
import Testing

/// A tiny marble language for debouncer timelines: one character per tick.
///
/// The raw line: `-` is high, `_` is low. The first character is the initial level (no edge); every
/// change of character is an edge at that tick.
/// The events line: `P` / `R` mark the tick at which a press / release was decided (`timeNs`); `p` / `r`
/// mark its onset (`onsetNs`) when that differs from the decision tick. Anything else is "nothing".
///
/// The driver feeds each tick's edge and then advances to that tick, as a real driver would; after the
/// last tick it calls `finish()`, so events decided after the timeline's end show up past its end (and fail).
struct Marble {
    var raw: String
    var events: String

    /// Runs `raw` through a debouncer and returns the rendered events line, or a description of an event
    /// that cannot be drawn (not on a tick, or two marks on one tick).
    static func render(raw: String, configuration: DebounceConfiguration, tickNs: Int64) -> String {
        let levels = raw.map { $0 == "_" ? Level.low : Level.high }
        guard let initial = levels.first else { return "" }
        var debouncer = Debouncer(configuration: configuration, initialLevel: initial, atNs: 0)
        var decided: [ButtonEvent] = []
        for tick in levels.indices {
            let timeNs = Int64(tick) * tickNs
            if tick > 0, levels[tick] != levels[tick - 1] {
                if let event = debouncer.receive(Edge(level: levels[tick], timeNs: timeNs)) { decided.append(event) }
            }
            if let event = debouncer.advance(toNs: timeNs) { decided.append(event) }
        }
        if let event = debouncer.finish() { decided.append(event) }

        var marks: [Int: Character] = [:]
        for event in decided {
            guard event.timeNs % tickNs == 0, event.onsetNs % tickNs == 0 else {
                return "event off the tick grid: \(event)"
            }
            let timeTick = Int(event.timeNs / tickNs), onsetTick = Int(event.onsetNs / tickNs)
            let upper: Character = event.kind == .press ? "P" : "R"
            let lower: Character = event.kind == .press ? "p" : "r"
            if onsetTick != timeTick {
                guard marks[onsetTick] == nil else { return "two marks on tick \(onsetTick): \(decided)" }
                marks[onsetTick] = lower
            }
            guard marks[timeTick] == nil else { return "two marks on tick \(timeTick): \(decided)" }
            marks[timeTick] = upper
        }
        let width = (marks.keys.max() ?? -1) + 1
        return String((0..<width).map { marks[$0] ?? " " })
    }

    /// Asserts that `raw` produces exactly `events` (trailing blanks ignored).
    static func expect(
        _ raw: String, _ events: String, _ configuration: DebounceConfiguration, tickNs: Int64 = 1_000_000,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = render(raw: raw, configuration: configuration, tickNs: tickNs)
        let expected = String(events.reversed().drop(while: { $0 == " " }).reversed())
        #expect(actual == expected, "\nraw:      \(raw)\nexpected: \(expected)\nactual:   \(actual)", sourceLocation: sourceLocation)
    }
}

extension DebounceStrategy {
    /// A strategy in ticks of 1 ms, for readable marble tests.
    static func deferTicks(_ ticks: Int64) -> Self { .defer(windowNs: ticks * 1_000_000) }
    static func eagerTicks(_ ticks: Int64, glitch: Int64 = 0) -> Self {
        .eager(lockoutNs: ticks * 1_000_000, glitchNs: glitch * 1_000_000)
    }
}
