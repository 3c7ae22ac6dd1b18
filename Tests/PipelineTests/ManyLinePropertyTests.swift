import DebounceCore
import Pipeline
import PropertyBased
import Simulation
import Testing

/// Many lines in one run: the pipeline visits only the lines with something due at a wakeup (and
/// brings the others up to time before their next input), and each line must still get exactly the
/// events that its own debouncer and gestures give when driven alone, woken at every deadline.
@Suite struct ManyLinePropertyTests {
    static let ms: Int64 = 1_000_000

    /// A line's plan from a few random choices: any strategy pair, each gesture on or off, or all off.
    static func plan(_ choices: UInt64) -> LinePlan {
        var random = SplitMix64(seed: choices)
        func strategy() -> DebounceStrategy {
            let windowNs = Int64(1 + random.next() % 30) * Self.ms
            switch random.next() % 3 {
            case 0: return .defer(windowNs: windowNs)
            case 1: return .eager(lockoutNs: windowNs)
            default: return .eager(lockoutNs: windowNs, glitchNs: windowNs / 4)
            }
        }
        let debounce = DebounceConfiguration(press: strategy(), release: strategy())
        func maybe(_ range: ClosedRange<Int64>) -> Int64? {
            random.next() % 2 == 0 ? nil : range.lowerBound + Int64(random.next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        // A third of the lines have every gesture off: the pipeline passes their events straight through.
        if random.next() % 3 == 0 { return LinePlan(debounce: debounce) }
        let gestures = GestureConfiguration(
            holdNs: maybe(100 * Self.ms...300 * Self.ms), repeatDelayNs: maybe(150 * Self.ms...350 * Self.ms),
            repeatIntervalNs: maybe(20 * Self.ms...80 * Self.ms), clickWindowNs: maybe(100 * Self.ms...500 * Self.ms),
            clickPolicy: random.next() % 2 == 0 ? .immediate : .exclusive, maxClickCount: random.next() % 3 == 0 ? 2 : nil,
            throttleNs: maybe(50 * Self.ms...400 * Self.ms))
        return LinePlan(debounce: debounce, gestures: gestures)
    }

    /// One line's events from its core stages alone, woken at every deadline either stage has (the
    /// plain way to drive them), every edge of an instant applied before that instant's decisions.
    static func reference(plan: LinePlan, initialLevel: Level, edges: [Edge]) -> [ButtonEvent] {
        var debouncer = Debouncer(configuration: plan.debounce ?? DebounceConfiguration(), initialLevel: initialLevel, atNs: 0)
        var recognizer = GestureRecognizer(configuration: plan.gestures)
        var events: [ButtonEvent] = []
        func advance(to timeNs: Int64) {
            if let event = debouncer.advance(toNs: timeNs) { events.append(contentsOf: recognizer.receive(event)) }
            events.append(contentsOf: recognizer.advance(toNs: timeNs))
        }
        func nextDue() -> Int64? {
            switch (debouncer.nextDeadlineNs, recognizer.nextDeadlineNs) {
            case (let a?, let b?): min(a, b)
            case (let a, let b): a ?? b
            }
        }
        var index = 0
        while index < edges.count {
            let timeNs = edges[index].timeNs
            while let dueNs = nextDue(), dueNs < timeNs { advance(to: dueNs) }
            while index < edges.count, edges[index].timeNs == timeNs {
                if let event = debouncer.receive(edges[index]) { events.append(contentsOf: recognizer.receive(event)) }
                index += 1
            }
            advance(to: timeNs)
        }
        while let dueNs = nextDue() { advance(to: dueNs) }
        return events
    }

    /// A button held down when the run starts: its first release is not reported (no release without
    /// a press), whether the line's gestures are all off (the pipeline passes its events straight
    /// through) or not (the recognizer runs), and with either strategy.
    @Test(arguments: [DebounceStrategy.eager(lockoutNs: 5_000_000), .defer(windowNs: 5_000_000)])
    func aButtonHeldAtTheStartReportsNoReleaseFirst(strategy: DebounceStrategy) throws {
        let script = [Edge(level: .high, timeNs: 10 * Self.ms), Edge(level: .low, timeNs: 50 * Self.ms), Edge(level: .high, timeNs: 90 * Self.ms)]
        let debounce = DebounceConfiguration(both: strategy)
        for gestures in [GestureConfiguration(), GestureConfiguration(holdNs: 3_600_000 * Self.ms)] {
            let plan = LinePlan(debounce: debounce, gestures: gestures)
            let run = try VirtualRun.play(SimulatedLines(initialLevel: .low, script: script), plans: [plan])
            #expect(run.events.map(\.event.kind) == [.press, .release], "\(gestures)")
            #expect(run.events.map(\.event.kind) == Self.reference(plan: plan, initialLevel: .low, edges: script).map(\.kind))
        }
    }

    /// The pipeline keeps its earliest due time rather than looking through every line at each call:
    /// after the line that was due first is decided, the next deadline is the next line's, and a raw
    /// line (no debouncer) has none.
    @Test func theNextDeadlineIsTheEarliestLinesAfterEachDecision() {
        let windowsMs: [Int64] = [20, 5, 10]
        var plans = windowsMs.map { LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: $0 * Self.ms))) }
        plans.append(LinePlan(debounce: nil))
        var pipeline = ButtonPipeline(plans: plans, initialLevels: Array(repeating: .high, count: plans.count), atNs: 0)
        var outputs: [PipelineOutput] = []
        #expect(pipeline.nextDeadlineNs == nil)
        for line in plans.indices { pipeline.receive(LineEdge(line: line, edge: Edge(level: .low, timeNs: Self.ms)), into: &outputs) }
        var deadlines: [Int64?] = [pipeline.nextDeadlineNs]
        // Bounded: a deadline that never moves on must fail the test, not hang it.
        while let deadlineNs = pipeline.nextDeadlineNs, deadlines.count <= plans.count {
            guard case .done = pipeline.advance(toNs: deadlineNs, into: &outputs) else {
                Issue.record("no line lost an edge, yet the pipeline asked for levels")
                break
            }
            deadlines.append(pipeline.nextDeadlineNs)
        }
        #expect(deadlines == [6 * Self.ms, 11 * Self.ms, 21 * Self.ms, nil])
        let presses = outputs.compactMap { output -> Int? in
            if case .event(let source, let event) = output, event.kind == .press { return source.lineIndex }
            return nil
        }
        #expect(presses == [1, 2, 0])
        #expect(pipeline.debouncer(line: 3) == nil && pipeline.statistics(line: 3) == nil)
        #expect(pipeline.statistics(line: 0)?.presses == 1)
    }

    @Test func eachLineGetsTheEventsItsStagesGiveAlone() async {
        await propertyCheck(count: 150, input: Gen.uint64(), Gen.int(in: 1...6)) { seed, lineCount in
            let buttons = (0..<lineCount).map { BouncyButton(seed: seed &+ UInt64($0), presses: 6) }
            let plans = (0..<lineCount).map { Self.plan(seed ^ (UInt64($0) &* 0x9E37_79B9_7F4A_7C15)) }
            let run = try VirtualRun.play(SimulatedLines(buttons: buttons), plans: plans)
            #expect(run.stop == .endOfInput)
            for line in 0..<lineCount {
                var alone = buttons[line]
                var edges: [Edge] = []
                while let edge = alone.next() { edges.append(edge) }
                let expected = Self.reference(plan: plans[line], initialLevel: buttons[line].initialLevel, edges: edges)
                let got = run.events.filter { $0.line == line }.map(\.event)
                #expect(got == expected, "line \(line) of \(lineCount), plan \(plans[line])")
            }
        }
    }
}
