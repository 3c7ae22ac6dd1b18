import DebounceCore
import Pipeline
import Testing

/// A reload's pipeline takes over the kept lines' state (`ButtonPipeline.carry`): a held button stays
/// held, a counter's total and an encoder's position go on, wherever the lines moved.
@Suite struct CarryTests {
    static let ms: Int64 = 1_000_000
    static let button = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: ms)))
    static let counter = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: ms)), role: .counter(initialTotal: 0))

    /// The plan of a line of input `input`.
    static func plan(_ plan: LinePlan, input: Int) -> LinePlan {
        var plan = plan
        plan.input = input
        return plan
    }

    /// Line 0 a button (input 0), 1 a counter (input 1), 2 and 3 an encoder (input 2); all high (released) at 0.
    static func before(atNs startNs: Int64 = 0) -> ButtonPipeline {
        ButtonPipeline(
            plans: [plan(button, input: 0), plan(counter, input: 1), plan(.raw, input: 2), plan(.raw, input: 2)],
            encoders: [EncoderPlan(lineA: 2, lineB: 3, input: 2)], initialLevels: [.high, .high, .high, .high], atNs: startNs)
    }

    static func events(_ outputs: [PipelineOutput]) -> [String] {
        outputs.compactMap { output in
            switch output {
            case .event(let source, let event): "\(source.lineIndex) \(event.kind)"
            case .count(let source, let count): "\(source.lineIndex) total \(count.total)"
            case .rotation(let source, let detent): "input \(source.input) line \(source.line) at \(detent.position)"
            default: nil
            }
        }
    }

    /// Presses the button (held), counts 3 pulses and turns the encoder one detent clockwise, by 20 ms.
    static func played() -> ButtonPipeline {
        var pipeline = before()
        var outputs: [PipelineOutput] = []
        var t: Int64 = 0
        func edge(_ line: Int, _ level: Level) {
            t += 2 * ms
            pipeline.receive(LineEdge(line: line, edge: Edge(level: level, timeNs: t)), into: &outputs)
            _ = pipeline.advance(toNs: t, into: &outputs)
        }
        edge(0, .low)
        for _ in 0..<3 { edge(1, .low); edge(1, .high) }
        // A quadrature step sequence clockwise (A leads): 11 → 01 → 00 → 10 → 11.
        edge(2, .low); edge(3, .low); edge(2, .high); edge(3, .high)
        _ = pipeline.advance(toNs: t + 10 * ms, into: &outputs)
        #expect(events(outputs) == ["0 press", "1 total 1", "1 total 2", "1 total 3", "input 2 line 2 at 1"])
        return pipeline
    }

    /// After a reload that moved every line (a new button first), the kept lines go on: the button is
    /// still pressed and its release is reported (not a press), the counter counts 4, the encoder goes to 2.
    @Test func keptLinesGoOnWhereTheyMoved() {
        let previous = Self.played()
        let t0: Int64 = 100 * Self.ms
        // After: 0 a new button, 1 the kept button, 2 the kept counter, 3 and 4 the kept encoder. The
        // level read at the start says what the lines are now (the held button low).
        var next = ButtonPipeline(
            plans: [Self.plan(Self.button, input: 0), Self.plan(Self.button, input: 1), Self.plan(Self.counter, input: 2), Self.plan(.raw, input: 3), Self.plan(.raw, input: 3)],
            encoders: [EncoderPlan(lineA: 3, lineB: 4, input: 3)], initialLevels: [.high, .low, .high, .high, .high], atNs: t0)
        #expect([0, 1, 2, 3].map { previous.value(ofInput: $0) } == [nil, 3, 1, nil], "a counter's total and an encoder's position; a button holds none")
        next.carry(from: previous, previousLine: [nil, 0, 1, 2, 3], previousInput: [nil, 0, 1, 2], suspecting: [])
        #expect(next.value(ofInput: 3) == 1 && next.value(ofInput: 2) == 3)
        #expect(next.debouncer(line: 1)?.isPressed == true)
        #expect(next.debouncer(line: 0)?.isPressed == false)
        #expect(next.pulseCounter(line: 2)?.total == 3)
        #expect(next.decoder(encoder: 0).position == 1)
        var outputs: [PipelineOutput] = []
        var t = t0
        func edge(_ line: Int, _ level: Level) {
            t += 2 * Self.ms
            next.receive(LineEdge(line: line, edge: Edge(level: level, timeNs: t)), into: &outputs)
            _ = next.advance(toNs: t, into: &outputs)
        }
        edge(1, .high)
        edge(2, .low); edge(2, .high)
        edge(3, .low); edge(4, .low); edge(3, .high); edge(4, .high)
        _ = next.advance(toNs: t + 10 * Self.ms, into: &outputs)
        #expect(Self.events(outputs) == ["1 release", "2 total 4", "input 3 line 3 at 2"])
    }

    /// Lines requested again (`suspecting`): a button let go while the lines were re-requested is
    /// reported released once its level is read, not left pressed.
    @Test func aChangeMissedWhileRequestedAgainIsReportedOnceRead() {
        let previous = Self.played()
        let t0: Int64 = 100 * Self.ms
        var next = Self.before(atNs: t0)
        next.carry(from: previous, previousLine: [0, 1, 2, 3], previousInput: [0, 1, 2], suspecting: [0, 1, 2, 3])
        #expect(next.debouncer(line: 0)?.isPressed == true)
        var outputs: [PipelineOutput] = []
        let due = next.nextDeadlineNs ?? .max
        guard case .readLevels(var request) = next.advance(toNs: max(due, t0), into: &outputs) else {
            Issue.record("no level asked for the lines requested again")
            return
        }
        #expect(request.lines.contains(0))
        request.read { line in line == 0 ? Level.high : Level.high }
        next.resume(request, into: &outputs)
        _ = next.advance(toNs: max(due, t0) + 10 * Self.ms, into: &outputs)
        #expect(Self.events(outputs) == ["0 release"])
    }

    /// A button with gestures pressed before a reload, still held as the reload's pipeline starts (it
    /// starts pressed): its release after the reload is the press's release, a `release` event, not the
    /// state of a button held since the start.
    @Test func aHeldButtonWithGesturesIsReleasedAfterTheReload() {
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: Self.ms)), gestures: GestureConfiguration(holdNs: 500 * Self.ms))
        var previous = ButtonPipeline(plans: [plan], initialLevels: [.high], atNs: 0)
        var outputs: [PipelineOutput] = []
        previous.receive(LineEdge(line: 0, edge: Edge(level: .low, timeNs: 2 * Self.ms)), into: &outputs)
        _ = previous.advance(toNs: 10 * Self.ms, into: &outputs)
        #expect(Self.events(outputs) == ["0 press"])
        var next = ButtonPipeline(plans: [plan], initialLevels: [.low], atNs: 20 * Self.ms)
        next.carry(from: previous, previousLine: [0], previousInput: [0], suspecting: [])
        outputs = []
        next.receive(LineEdge(line: 0, edge: Edge(level: .high, timeNs: 30 * Self.ms)), into: &outputs)
        _ = next.advance(toNs: 40 * Self.ms, into: &outputs)
        #expect(Self.events(outputs) == ["0 release"])
        #expect(!outputs.contains { if case .buttonState = $0 { true } else { false } })
    }
}
