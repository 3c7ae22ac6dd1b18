import DebounceCore
import Testing

/// A marble language for selector switches: one character per tick (1 ms).
///
/// One string per line: `_` the line reads active (its contact closed to the common, wired to
/// ground), `-` inactive; the first character is the start's reading (no change), every change of
/// character a change of that line at that tick; a shorter line keeps its last level. The events
/// line: at the tick an event is reported, the position's digit (a letter from 10 on: `A` is 10) for
/// a select, `!` for an invalid reading; a blank is nothing, and trailing blanks are ignored.
///
/// Each timeline runs through two drivers, which must agree on every event: one that advances to
/// every tick after its changes, and one that never advances until the end (a reading is decided by
/// the next change, the last one by `advance(toNs: .max)`). After the timeline time goes on, so a
/// reading still settling at its end is decided too.
enum SelectorMarble {
    static let tickNs: Int64 = 1_000_000

    /// The events of the timeline, from the advancing driver, and that driver's decoder; records an
    /// issue when the drivers disagree.
    static func run(
        _ lines: [String], _ configuration: SelectorConfiguration, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (events: [SelectorEvent], decoder: SelectorDecoder) {
        let levels = lines.map { $0.map { $0 == "_" } }
        let ticks = levels.map(\.count).max() ?? 0
        func active(_ line: Int, _ tick: Int) -> Bool { levels[line][min(tick, levels[line].count - 1)] }
        var start: UInt32 = 0
        for line in levels.indices where active(line, 0) { start |= 1 << UInt32(line) }
        var advancing = SelectorDecoder(configuration: configuration, activeLines: start, atNs: 0)
        var lazy = advancing
        var events: [SelectorEvent] = [], lazyEvents: [SelectorEvent] = []
        for tick in 1..<max(ticks, 1) {
            let timeNs = Int64(tick) * tickNs
            for line in levels.indices where active(line, tick) != active(line, tick - 1) {
                if let event = advancing.receive(line: line, isActive: active(line, tick), atNs: timeNs) { events.append(event) }
                if let event = lazy.receive(line: line, isActive: active(line, tick), atNs: timeNs) { lazyEvents.append(event) }
            }
            if let event = advancing.advance(toNs: timeNs) { events.append(event) }
        }
        if let event = advancing.advance(toNs: .max) { events.append(event) }
        if let event = lazy.advance(toNs: .max) { lazyEvents.append(event) }
        #expect(events == lazyEvents, "advancing and lazy drivers disagree", sourceLocation: sourceLocation)
        return (events, advancing)
    }

    /// The events line of `events`, or a description of an event that cannot be drawn.
    static func render(_ events: [SelectorEvent]) -> String {
        var marks: [Int: Character] = [:]
        for event in events {
            guard event.timeNs % tickNs == 0 else { return "event off the tick grid: \(event)" }
            let tick = Int(event.timeNs / tickNs)
            guard marks[tick] == nil else { return "two events on tick \(tick): \(events)" }
            switch event.kind {
            case .select(let position, _):
                guard (0..<36).contains(position) else { return "a position that cannot be drawn: \(event)" }
                marks[tick] = position < 10 ? Character(String(position)) : Character(Unicode.Scalar(UInt8(55 + position)))
            case .invalid:
                marks[tick] = "!"
            }
        }
        return String((0..<((marks.keys.max() ?? -1) + 1)).map { marks[$0] ?? " " })
    }

    /// Asserts that `lines` give exactly the `events` line; returns the run for further checks.
    @discardableResult
    static func expect(
        _ lines: [String], events expected: String, _ configuration: SelectorConfiguration, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (events: [SelectorEvent], decoder: SelectorDecoder) {
        let run = run(lines, configuration, sourceLocation: sourceLocation)
        let trimmed = String(expected.reversed().drop { $0 == " " }.reversed())
        #expect(render(run.events) == trimmed, sourceLocation: sourceLocation)
        return run
    }
}
