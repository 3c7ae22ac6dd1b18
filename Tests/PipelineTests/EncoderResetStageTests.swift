import DebounceCore
import EventLoop
import Pipeline
import Simulation
import Testing

/// An encoder's reset button (`LineRole.encoderReset`): its bouncy press, debounced as any button's,
/// sets the encoder's position once, the next detent counting on from there.
@Suite struct EncoderResetStageTests {
    static let ms: Int64 = 1_000_000
    static let debounce = DebounceConfiguration(both: .defer(windowNs: 10 * ms))

    /// Lines 0 (A) and 1 (B): `before` clockwise detents from 10 ms, one transition every 5 ms, then
    /// one more at 500 ms; line 2: a press at 200 ms bouncing for 3 ms, let go at 300 ms with bounce.
    static func lines() -> SimulatedLines {
        var scripts: [[Edge]] = [[], [], []]
        func detent(at startNs: Int64) {
            let transitions: [(line: Int, level: Level)] = [(0, .low), (1, .low), (0, .high), (1, .high)]
            for (step, (line, level)) in transitions.enumerated() { scripts[line].append(Edge(level: level, timeNs: startNs + Int64(step) * 5 * ms)) }
        }
        for index in 0..<3 { detent(at: 10 * ms + Int64(index) * 20 * ms) }
        detent(at: 500 * ms)
        let bounces: [(Level, Int64)] = [(.low, 200), (.high, 201), (.low, 202), (.high, 202), (.low, 203), (.high, 300), (.low, 301), (.high, 302)]
        scripts[2] = bounces.map { Edge(level: $0.0, timeNs: $0.1 * ms) }
        return SimulatedLines(initialLevels: [.high, .high, .high], scripts: scripts.map { $0.makeIterator() })
    }

    static func resets(_ outputs: [PipelineOutput]) -> [(source: OutputSource, position: Int, atNs: Int64)] {
        outputs.compactMap { if case .positionReset(let source, let position, let atNs) = $0 { (source, position, atNs) } else { nil } }
    }

    @Test func aBouncyPressResetsOnceAndTurningGoesOnFromTheResetValue() throws {
        let encoder = EncoderPlan(lineA: 0, lineB: 1, configuration: EncoderConfiguration(range: -10...10), initialPosition: 5)
        let run = try VirtualRun.play(
            Self.lines(), plan: PipelinePlan(lines: [.raw, .raw, LinePlan(debounce: Self.debounce, role: .encoderReset(encoder: 0, position: -2))], encoders: [encoder]))
        #expect(run.rotations.map(\.event.position) == [6, 7, 8, -1])
        let resets = Self.resets(run.outputs)
        #expect(resets.count == 1)
        // The press's debounced time: its last bounce (203 ms) held for the 10 ms window.
        #expect(resets.first?.source == OutputSource(input: 0, line: 0) && resets.first?.position == -2 && resets.first?.atNs == 213 * Self.ms)
        #expect(run.loop.pipeline.decoder(encoder: 0).position == -1)
        // No button event for the reset line: its press is the reset.
        #expect(run.events.isEmpty)
        // In order: the three detents, the reset, the detent after it.
        let order = run.outputs.compactMap { output -> String? in
            switch output {
            case .rotation: "rotate"
            case .positionReset: "reset"
            default: nil
            }
        }
        #expect(order == ["rotate", "rotate", "rotate", "reset", "rotate"])
        #expect(run.loop.pipeline.statistics(line: 2)?.presses == 1)
    }

    /// A reset target outside the range is clamped by the decoder.
    @Test func theResetPositionIsClampedIntoTheRange() {
        var pipeline = ButtonPipeline(
            plans: [.raw, .raw, LinePlan(debounce: Self.debounce, role: .encoderReset(encoder: 0, position: 99))],
            encoders: [EncoderPlan(lineA: 0, lineB: 1, configuration: EncoderConfiguration(range: 0...20))], initialLevels: [.high, .high, .high],
            atNs: 0, reportsEdges: false)
        var outputs: [PipelineOutput] = []
        pipeline.receive(LineEdge(line: 2, edge: Edge(level: .low, timeNs: 1 * Self.ms)), into: &outputs)
        _ = pipeline.advance(toNs: 11 * Self.ms, into: &outputs)
        #expect(Self.resets(outputs).map(\.position) == [20])
        #expect(pipeline.decoder(encoder: 0).position == 20)
        // The release resets nothing.
        pipeline.receive(LineEdge(line: 2, edge: Edge(level: .high, timeNs: 50 * Self.ms)), into: &outputs)
        _ = pipeline.advance(toNs: 100 * Self.ms, into: &outputs)
        #expect(Self.resets(outputs).count == 1 && pipeline.nextDeadlineNs == nil)
    }

    /// A reset button held down when the run starts resets nothing until it is pressed again.
    @Test func aButtonHeldAtTheStartResetsOnlyAtItsNextPress() {
        var pipeline = ButtonPipeline(
            plans: [.raw, .raw, LinePlan(debounce: Self.debounce, role: .encoderReset(encoder: 0, position: 0))],
            encoders: [EncoderPlan(lineA: 0, lineB: 1, initialPosition: 7)], initialLevels: [.high, .high, .low], atNs: 0, reportsEdges: false)
        var outputs: [PipelineOutput] = []
        pipeline.receive(LineEdge(line: 2, edge: Edge(level: .high, timeNs: 5 * Self.ms)), into: &outputs)
        _ = pipeline.advance(toNs: 30 * Self.ms, into: &outputs)
        #expect(Self.resets(outputs).isEmpty && pipeline.decoder(encoder: 0).position == 7)
        pipeline.receive(LineEdge(line: 2, edge: Edge(level: .low, timeNs: 40 * Self.ms)), into: &outputs)
        _ = pipeline.advance(toNs: 60 * Self.ms, into: &outputs)
        #expect(Self.resets(outputs).map(\.position) == [0] && pipeline.decoder(encoder: 0).position == 0)
    }
}

/// A reload keeps an encoder with its reset button (`ButtonPipeline.carry`): a press still bouncing
/// when the reload came is decided by the new pipeline, once, on the encoder's new index.
@Suite struct EncoderResetCarryTests {
    static let ms: Int64 = 1_000_000

    @Test func aPressUnderWayAtAReloadResetsOnceAfterIt() {
        let reset = { (encoder: Int) in LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 10 * Self.ms)), role: .encoderReset(encoder: encoder, position: 4)) }
        var old = ButtonPipeline(
            plans: [.raw, .raw, reset(0)], encoders: [EncoderPlan(lineA: 0, lineB: 1, initialPosition: 9)], initialLevels: [.high, .high, .high], atNs: 0)
        var outputs: [PipelineOutput] = []
        old.receive(LineEdge(line: 2, edge: Edge(level: .low, timeNs: 1 * Self.ms)), into: &outputs)
        _ = old.advance(toNs: 5 * Self.ms, into: &outputs)
        #expect(EncoderResetStageTests.resets(outputs).isEmpty, "still within the debounce window")
        // The new run lists another encoder first: this one is encoder 1, on lines 2, 3 and 4.
        var new = ButtonPipeline(
            plans: [.raw, .raw, .raw, .raw, reset(1)], encoders: [EncoderPlan(lineA: 0, lineB: 1), EncoderPlan(lineA: 2, lineB: 3)],
            initialLevels: Array(repeating: .high, count: 5), atNs: 5 * Self.ms)
        new.carry(from: old, previousLine: [nil, nil, 0, 1, 2], previousInput: [nil, 0])
        #expect(new.decoder(encoder: 1).position == 9)
        _ = new.advance(toNs: 30 * Self.ms, into: &outputs)
        #expect(EncoderResetStageTests.resets(outputs).map { [Int($0.source.input), Int($0.source.line), $0.position] } == [[1, 2, 4]])
        #expect(new.decoder(encoder: 1).position == 4 && new.decoder(encoder: 0).position == 0)
    }
}
