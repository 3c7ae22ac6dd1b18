import DebounceCore
import Testing

/// A marble language for contacts' timelines: one character per tick (1 ms).
///
/// The input line is what the debouncer reported, as in `GestureMarble`: `P` (on) / `R` (off) decided
/// at that tick, with its onset there unless a `p` / `r` before it marks the onset. The expected line
/// has `1` where "on" is reported and `0` where "off" is, at the ticks they are reported; anything
/// else is "nothing". The contact starts off at tick 0.
///
/// Each timeline runs through two drivers, which must agree: one that advances at every tick, and one
/// that advances only at `nextDeadlineNs` and at input times, as the event loop does. Both run on 30
/// ticks past the longest line, so a change reported after the expected end shows up (and fails).
enum ContactMarble {
    static func ns(_ ticks: Int64) -> Int64 { ticks * GestureMarble.tickNs }

    static func runEveryTick(_ inputs: [ButtonEvent], _ configuration: ContactConfiguration, endNs: Int64) -> [ContactEvent] {
        var filter = ContactFilter(configuration: configuration, isOn: false, atNs: 0)
        var output: [ContactEvent] = []
        var next = inputs.startIndex
        var timeNs: Int64 = 0
        while timeNs <= endNs {
            while next < inputs.endIndex, inputs[next].timeNs <= timeNs {
                output += filter.receive(inputs[next]).events
                next += 1
            }
            if let change = filter.advance(toNs: timeNs) { output.append(change) }
            timeNs += GestureMarble.tickNs
        }
        return output
    }

    static func runAtDeadlines(_ inputs: [ButtonEvent], _ configuration: ContactConfiguration, endNs: Int64) -> [ContactEvent] {
        var filter = ContactFilter(configuration: configuration, isOn: false, atNs: 0)
        var output: [ContactEvent] = []
        var next = inputs.startIndex
        while true {
            let inputNs = next < inputs.endIndex ? inputs[next].timeNs : nil
            if let deadlineNs = filter.nextDeadlineNs, deadlineNs < (inputNs ?? .max), deadlineNs <= endNs {
                if let change = filter.advance(toNs: deadlineNs) { output.append(change) }
            } else if let inputNs {
                output += filter.receive(inputs[next]).events
                next += 1
                if let change = filter.advance(toNs: inputNs) { output.append(change) }
            } else {
                return output
            }
        }
    }

    /// The expected line of `changes`: `1`/`0` at their report ticks.
    static func render(_ changes: [ContactEvent]) -> String {
        var marks: [Int: Character] = [:]
        for change in changes {
            guard change.timeNs % GestureMarble.tickNs == 0 else { return "off the tick grid: \(change)" }
            let tick = Int(change.timeNs / GestureMarble.tickNs)
            guard marks[tick] == nil else { return "two changes on tick \(tick): \(changes)" }
            marks[tick] = change.isOn ? "1" : "0"
        }
        return String((0..<((marks.keys.max() ?? -1) + 1)).map { marks[$0] ?? " " })
    }

    /// Asserts that the input line gives exactly the expected line, with both drivers; returns the changes.
    @discardableResult
    static func expect(
        _ input: String, reports expected: String, onDelay: Int64 = 0, offDelay: Int64 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [ContactEvent] {
        let configuration = ContactConfiguration(onDelayNs: ns(onDelay), offDelayNs: ns(offDelay))
        let inputs = GestureMarble.events(input)
        let endNs = ns(Int64(max(input.count, expected.count) + 30))
        let everyTick = runEveryTick(inputs, configuration, endNs: endNs)
        #expect(everyTick == runAtDeadlines(inputs, configuration, endNs: endNs), "the two drivers disagree", sourceLocation: sourceLocation)
        let wanted = String(String(expected.map { "01".contains($0) ? $0 : " " }).reversed().drop { $0 == " " }.reversed())
        #expect(render(everyTick) == wanted, "\ninput:    \(input)\nexpected: \(wanted)\nactual:   \(render(everyTick))", sourceLocation: sourceLocation)
        return everyTick
    }
}
