import DebounceCore
import Testing

/// A marble language for gesture timelines: one character per tick (1 ms).
///
/// The input line is what the debouncer reported: `P` / `R` a press / release decided at that tick,
/// with its onset at the same tick unless a `p` / `r` before it marks the onset. (Or a raw-level line,
/// `-` high, `_` low, run through a `Debouncer` first: see `events(raw:configuration:)`.)
/// Two expected lines:
/// - `passed`: the press and release events the recognizer let through, `P` / `R` at their decision
///   ticks (a swallowed press and its release leave blanks);
/// - `gestures`: `H` a hold, `T` a repeat, `L` a long release (the release of a press that had its
///   hold), `1`...`9` a click with that count, at their decision ticks.
/// Anything else in an expected line is "nothing" (so `passed` may copy the input line, `-` and all);
/// trailing blanks are ignored. A click count over 9 is drawn `+`.
///
/// Each timeline runs through two drivers, which must agree: one that advances at every tick, and one
/// that advances only at `nextDeadlineNs` and at input times, as a sleeping driver does. Both run on
/// 30 ticks past the longest line, so an event decided after the expected end shows up (and fails).
enum GestureMarble {
    static let tickNs: Int64 = 1_000_000

    /// `ticks` ticks in nanoseconds.
    static func ns(_ ticks: Int64) -> Int64 { ticks * tickNs }

    /// The events an input line of `P`/`R` (and `p`/`r` onsets) stands for.
    static func events(_ line: String) -> [ButtonEvent] {
        var events: [ButtonEvent] = []
        var onset: [Character: Int64] = [:]
        for (tick, mark) in line.enumerated() {
            let timeNs = ns(Int64(tick))
            switch mark {
            case "p", "r": onset[mark] = timeNs
            case "P": events.append(ButtonEvent(kind: .press, timeNs: timeNs, onsetNs: onset.removeValue(forKey: "p") ?? timeNs))
            case "R": events.append(ButtonEvent(kind: .release, timeNs: timeNs, onsetNs: onset.removeValue(forKey: "r") ?? timeNs))
            default: break
            }
        }
        return events
    }

    /// The events a raw-level line (`-` high, `_` low; active low) gives through a debouncer.
    static func events(raw: String, configuration: DebounceConfiguration) -> [ButtonEvent] {
        let levels = raw.map { $0 == "_" ? Level.low : Level.high }
        guard let initial = levels.first else { return [] }
        var debouncer = Debouncer(configuration: configuration, initialLevel: initial, atNs: 0)
        var decided: [ButtonEvent] = []
        for tick in levels.indices {
            let timeNs = ns(Int64(tick))
            if tick > 0, levels[tick] != levels[tick - 1],
                let event = debouncer.receive(Edge(level: levels[tick], timeNs: timeNs))
            {
                decided.append(event)
            }
            if let event = debouncer.advance(toNs: timeNs) { decided.append(event) }
        }
        if let event = debouncer.finish() { decided.append(event) }
        return decided
    }

    /// Runs `inputs` (in time order) through a recognizer advanced at every tick up to `endNs`.
    static func runEveryTick(_ inputs: [ButtonEvent], _ configuration: GestureConfiguration, endNs: Int64, tickNs: Int64 = GestureMarble.tickNs) -> [ButtonEvent] {
        var recognizer = GestureRecognizer(configuration: configuration)
        var output: [ButtonEvent] = []
        var next = inputs.startIndex
        var timeNs: Int64 = 0
        while timeNs <= endNs {
            while next < inputs.endIndex, inputs[next].timeNs <= timeNs {
                output.append(contentsOf: recognizer.receive(inputs[next]))
                next += 1
            }
            output.append(contentsOf: recognizer.advance(toNs: timeNs))
            timeNs += tickNs
        }
        return output
    }

    /// Runs `inputs` (in time order) through a recognizer advanced only at its deadlines and at the
    /// input times, up to `endNs`, as a driver that sleeps until the next deadline does.
    static func runAtDeadlines(_ inputs: [ButtonEvent], _ configuration: GestureConfiguration, endNs: Int64) -> [ButtonEvent] {
        var recognizer = GestureRecognizer(configuration: configuration)
        var output: [ButtonEvent] = []
        var next = inputs.startIndex
        while true {
            let inputNs = next < inputs.endIndex ? inputs[next].timeNs : nil
            let deadlineNs = recognizer.nextDeadlineNs
            if let deadlineNs, deadlineNs < (inputNs ?? .max), deadlineNs <= endNs {
                // A deadline due before the next input (an input at the same instant comes first).
                output.append(contentsOf: recognizer.advance(toNs: deadlineNs))
            } else if let inputNs {
                while next < inputs.endIndex, inputs[next].timeNs == inputNs {
                    output.append(contentsOf: recognizer.receive(inputs[next]))
                    next += 1
                }
                output.append(contentsOf: recognizer.advance(toNs: inputNs))
            } else {
                return output
            }
        }
    }

    /// The `passed` and `gestures` lines of `events`, or a description of an event that cannot be drawn.
    static func render(_ events: [ButtonEvent]) -> (passed: String, gestures: String) {
        var passed: [Int: Character] = [:]
        var gestures: [Int: Character] = [:]
        for event in events {
            guard event.timeNs % tickNs == 0 else { return ("event off the tick grid: \(event)", "") }
            let tick = Int(event.timeNs / tickNs)
            let mark: Character
            switch event.kind {
            case .press: mark = "P"
            case .release: mark = "R"
            case .hold: mark = "H"
            case .repeat: mark = "T"
            case .click: mark = event.count < 10 ? Character(String(event.count)) : "+"
            case .longRelease: mark = "L"
            }
            let isPassthrough = event.kind == .press || event.kind == .release
            guard (isPassthrough ? passed[tick] : gestures[tick]) == nil else {
                return ("two marks on tick \(tick): \(events)", "")
            }
            if isPassthrough { passed[tick] = mark } else { gestures[tick] = mark }
        }
        func line(_ marks: [Int: Character]) -> String {
            String((0..<((marks.keys.max() ?? -1) + 1)).map { marks[$0] ?? " " })
        }
        return (line(passed), line(gestures))
    }

    /// `line` with every character that is not one of `marks` blanked, and trailing blanks dropped.
    private static func normalized(_ line: String, keeping marks: String) -> String {
        let blanked = line.map { marks.contains($0) ? $0 : " " }
        return String(blanked.reversed().drop(while: { $0 == " " }).reversed())
    }

    /// Asserts that the input line gives exactly the `passed` and `gestures` lines, with both drivers.
    static func expect(
        _ input: String, passed: String, gestures: String, _ configuration: GestureConfiguration,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expect(events: events(input), drawn: input, passed: passed, gestures: gestures, configuration, sourceLocation: sourceLocation)
    }

    /// Asserts that the raw-level line, through a debouncer with `debounce`, then a recognizer, gives
    /// exactly the `passed` and `gestures` lines.
    static func expect(
        raw: String, debounce: DebounceConfiguration, passed: String, gestures: String,
        _ configuration: GestureConfiguration, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expect(
            events: events(raw: raw, configuration: debounce), drawn: raw, passed: passed, gestures: gestures,
            configuration, sourceLocation: sourceLocation)
    }

    private static func expect(
        events inputs: [ButtonEvent], drawn input: String, passed: String, gestures: String,
        _ configuration: GestureConfiguration, sourceLocation: SourceLocation
    ) {
        let endNs = ns(Int64(max(input.count, passed.count, gestures.count) + 30))
        let everyTick = runEveryTick(inputs, configuration, endNs: endNs)
        let atDeadlines = runAtDeadlines(inputs, configuration, endNs: endNs)
        #expect(everyTick == atDeadlines, "the two drivers disagree", sourceLocation: sourceLocation)
        let actual = render(everyTick)
        let expected = (
            passed: normalized(passed, keeping: "PR"), gestures: normalized(gestures, keeping: "HTL123456789+")
        )
        #expect(
            actual.passed == expected.passed && actual.gestures == expected.gestures,
            """

            input:             \(input)
            expected passed:   \(expected.passed)
            actual passed:     \(actual.passed)
            expected gestures: \(expected.gestures)
            actual gestures:   \(actual.gestures)
            """,
            sourceLocation: sourceLocation)
    }
}

extension GestureMarble {
    /// How long each reported release (and long release) says its press was held, in ticks, with both
    /// drivers (which must agree): `(kind, held ticks)` in output order.
    static func heldTicks(_ inputs: [ButtonEvent], _ configuration: GestureConfiguration, sourceLocation: SourceLocation = #_sourceLocation)
        -> [String]
    {
        let endNs = (inputs.last?.timeNs ?? 0) + ns(30)
        let everyTick = runEveryTick(inputs, configuration, endNs: endNs)
        #expect(everyTick == runAtDeadlines(inputs, configuration, endNs: endNs), "the two drivers disagree", sourceLocation: sourceLocation)
        return everyTick.filter { $0.kind == .release || $0.kind == .longRelease }.map { event in
            let ticks = event.heldNs / tickNs
            return event.heldNs % tickNs == 0 ? "\(event.kind == .release ? "R" : "L")\(ticks)" : "off-grid \(event.heldNs) ns"
        }
    }
}
