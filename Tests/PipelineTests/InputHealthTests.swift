import DebounceCore
import Pipeline
import Testing

/// Each line's and encoder's health as the pipeline gathers it (`InputHealth`): the debouncer's
/// counts, a contact's suppressed changes, the events the loop reported lost, an encoder's changes.
@Suite struct InputHealthTests {
    static let ms: Int64 = 1_000_000

    /// Feeds `levels` to `line` at 1 ms per tick from `startTick` (an edge at each change), advancing
    /// after each tick.
    static func play(_ raw: String, line: Int, into pipeline: inout ButtonPipeline, startTick: Int64 = 0) {
        var outputs: [PipelineOutput] = []
        let levels = raw.map { $0 == "_" ? Level.low : Level.high }
        for tick in levels.indices where tick > 0 {
            let timeNs = (startTick + Int64(tick)) * ms
            if levels[tick] != levels[tick - 1] { pipeline.receive(LineEdge(line: line, edge: Edge(level: levels[tick], timeNs: timeNs)), into: &outputs) }
            _ = pipeline.advance(toNs: timeNs, into: &outputs)
        }
    }

    @Test func aButtonsHealthCountsItsBounceGlitchesNoiseAndLosses() {
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 3 * Self.ms)))
        var pipeline = ButtonPipeline(plans: [plan, plan], initialLevels: [.high, .high], atNs: 0)
        // A bouncy press, a glitch, a noise burst, a clean release.
        Self.play("--_-_______-_______-_-_-_______--------", line: 0, into: &pipeline)
        pipeline.suspectLoss(line: 0, count: 3)
        pipeline.suspectLoss(line: 0)
        let health = pipeline.health(line: 0, atNs: 100 * Self.ms)
        #expect(health == InputHealth(edges: 12, bouncesAbsorbed: 2, glitchesRejected: 1, noiseBursts: 1, lostEvents: 4))
        #expect(pipeline.health(line: 1, atNs: 100 * Self.ms) == InputHealth(), "the other line saw nothing")
    }

    /// A line a reload keeps goes on with its counts, lost events included; a suspicion of loss the
    /// reload adds (a line requested again) counts no lost event.
    @Test func aKeptLinesHealthGoesOnAcrossAReload() {
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 3 * Self.ms)))
        var previous = ButtonPipeline(plans: [plan], initialLevels: [.high], atNs: 0)
        Self.play("--_-_______-_______-_-_-_______--------", line: 0, into: &previous)
        previous.suspectLoss(line: 0, count: 2)
        let before = previous.health(line: 0, atNs: 100 * Self.ms)
        var next = ButtonPipeline(plans: [plan, plan], initialLevels: [.high, .high], atNs: 100 * Self.ms)
        next.carry(from: previous, previousLine: [nil, 0], previousInput: [nil, 0], suspecting: [1])
        #expect(next.health(line: 1, atNs: 100 * Self.ms) == before)
        #expect(before.edges == 12 && before.lostEvents == 2)
        #expect(next.health(line: 0, atNs: 100 * Self.ms) == InputHealth(), "an added line starts from nothing")
    }

    @Test func aSensorsChangeThatTurnedBackBeforeItsDelayIsAGlitch() {
        let contact = ContactConfiguration(onDelayNs: 20 * Self.ms, offDelayNs: 0)
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 2 * Self.ms)), role: .contact(contact))
        var pipeline = ButtonPipeline(plans: [plan], initialLevels: [.high], atNs: 0)
        // Pressed (on) for 10 ms: debounced, but shorter than the 20 ms on delay.
        Self.play("--__________----------", line: 0, into: &pipeline)
        let health = pipeline.health(line: 0, atNs: 100 * Self.ms)
        #expect(pipeline.contactFilter(line: 0)?.isOn == false)
        #expect(health.glitchesRejected == 1)
        #expect(health.edges == 2 && health.bouncesAbsorbed == 0)
    }

    @Test func anEncodersHealthIsItsTwoLinesChangesAndLosses() {
        let encoder = EncoderPlan(lineA: 0, lineB: 1, configuration: EncoderConfiguration(stepsPerDetent: .four))
        var pipeline = ButtonPipeline(plans: [.raw, .raw], encoders: [encoder], initialLevels: [.high, .high], atNs: 0)
        var outputs: [PipelineOutput] = []
        // One clockwise detent (A leads: 11 → 01 → 00 → 10 → 11) with one bounce of A on the way.
        let changes: [(line: Int, level: Level)] = [(0, .low), (0, .high), (0, .low), (1, .low), (0, .high), (1, .high)]
        for (tick, change) in changes.enumerated() {
            let timeNs = Int64(tick + 1) * Self.ms
            pipeline.receive(LineEdge(line: change.line, edge: Edge(level: change.level, timeNs: timeNs)), into: &outputs)
            _ = pipeline.advance(toNs: timeNs, into: &outputs)
        }
        _ = pipeline.advance(toNs: 100 * Self.ms, into: &outputs)
        pipeline.suspectLoss(line: 1, count: 2)
        #expect(outputs.filter { if case .rotation = $0 { true } else { false } }.count == 1)
        #expect(pipeline.health(encoder: 0) == InputHealth(edges: 6, bouncesAbsorbed: 2, lostEvents: 2, countsGlitches: false))
    }

    /// An input's health by its identity: an encoder's is its decoder's (not its reset line's), any
    /// other input's its lines' added up (a keypad's keys), whatever lines it has.
    @Test func anInputsHealthIsFoundByItsIdentity() {
        let debounced = DebounceConfiguration(both: .defer(windowNs: 3 * Self.ms))
        // Input 2 an encoder on lines 0 and 1 with its reset on line 4; input 7 two keys, lines 2 and 3.
        let plans = [
            LinePlan(debounce: nil, input: 2), LinePlan(debounce: nil, input: 2), LinePlan(debounce: debounced, input: 7),
            LinePlan(debounce: debounced, input: 7), LinePlan(debounce: debounced, role: .encoderReset(encoder: 0, position: 0), input: 2),
        ]
        var pipeline = ButtonPipeline(
            plans: plans, encoders: [EncoderPlan(lineA: 0, lineB: 1, input: 2)], initialLevels: Array(repeating: .high, count: 5), atNs: 0)
        Self.play("--_-_______--------", line: 2, into: &pipeline)
        Self.play("--_____----", line: 3, into: &pipeline, startTick: 50)
        Self.play("--_-_____----", line: 4, into: &pipeline, startTick: 100)
        pipeline.suspectLoss(line: 1, count: 2)
        #expect(pipeline.health(input: 7, atNs: 200 * Self.ms) == InputHealth(edges: 6, bouncesAbsorbed: 2, lostEvents: 0))
        #expect(pipeline.health(input: 2, atNs: 200 * Self.ms) == pipeline.health(encoder: 0))
        #expect(pipeline.health(input: 2, atNs: 200 * Self.ms).lostEvents == 2)
        #expect(pipeline.health(input: 5, atNs: 200 * Self.ms) == InputHealth(), "no such input")
    }
}
