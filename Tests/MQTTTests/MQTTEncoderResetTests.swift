import DebounceCore
import EventLoop
import Foundation
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Simulation
import Testing

/// An encoder's reset button (`reset_line:`) through the event loop to a real broker: the position it
/// sets is published retained on `<base>/<encoder>/position`, as a detent's is, with no event.
@Suite(.serialized) struct MQTTEncoderResetTests {
    typealias Base = MQTTSinkTests
    typealias Turns = MQTTEncoderSinkTests

    @Test func aResetPublishesThePositionItSetRetained() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/volume/#"], name: "reset")
        let sink = try MQTTSink(settings: Base.settings(broker), inputs: [Turns.encoder], softwareVersion: "t", logger: Base.logger)
        // Three slow detents clockwise from 1 s, then the reset button (line 2) pressed with bounce at 1.6 s.
        var scripts: [[Edge]] = [[], [], []]
        var timeNs = 1_000 * Base.ms
        for _ in 0..<3 {
            for (line, level) in [(0, Level.low), (1, .low), (0, .high), (1, .high)] {
                scripts[line].append(Edge(level: level, timeNs: timeNs))
                timeNs += 25 * Base.ms
            }
        }
        scripts[2] = [Edge(level: .low, timeNs: 1_600 * Base.ms), Edge(level: .high, timeNs: 1_601 * Base.ms), Edge(level: .low, timeNs: 1_602 * Base.ms)]
        let lines = SimulatedLines(initialLevels: [.high, .high, .high], scripts: scripts.map { $0.makeIterator() })
        var resets = 0
        let collector = CallbackSink { if case .positionReset = $0 { resets += 1 } }
        let loop = try EventLoop(
            clock: .realTime(), source: lines, plan: PipelinePlan(lines: [.raw, .raw, LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 10 * Base.ms)), role: .encoderReset(encoder: 0, position: 10))], encoders: [EncoderPlan(lineA: 0, lineB: 1)]), sinks: [collector, sink], limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        _ = try loop.run()
        #expect(sink.disconnectedCleanly)
        #expect(resets == 1)
        subscriber.wait { _ in Turns.live(subscriber, "position").count >= 5 }
        #expect(Turns.live(subscriber, "position") == ["0", "1", "2", "3", "10"])
        #expect(Turns.live(subscriber, "event").count == 3, "a detent's event each, none for the reset")
        #expect(try Turns.retainedPosition(broker) == "1 10")
    }
}
