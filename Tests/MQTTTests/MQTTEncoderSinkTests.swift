import DebounceCore
import EventLoop
import EventOutput
import Foundation
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Simulation
import Testing

/// A rotary encoder's detents through the one event loop (real time, simulated lines) to a real
/// broker: events on `<base>/<encoder>/event`, the position retained on `<base>/<encoder>/position`.
@Suite(.serialized) struct MQTTEncoderSinkTests {
    typealias Base = MQTTSinkTests
    static let encoder = EncoderPresenter(name: "volume", input: 0, chip: "simulated", lines: [0, 1])

    /// Lines A and B (clean edges, one transition every `stepNs` from `startMs`): `clockwise` detents
    /// (A leads: 11 → 01 → 00 → 10 → 11), then `counterClockwise` detents back.
    static func turns(clockwise: Int, counterClockwise: Int, stepNs: Int64, startMs: Int64 = 200) -> SimulatedLines {
        var scripts: [[Edge]] = [[], []]
        var timeNs = startMs * Base.ms
        // Per detent, the line that changes at each of its four transitions, and its new level.
        let cw: [(line: Int, level: Level)] = [(0, .low), (1, .low), (0, .high), (1, .high)]
        let ccw: [(line: Int, level: Level)] = [(1, .low), (0, .low), (1, .high), (0, .high)]
        for transitions in Array(repeating: cw, count: clockwise) + Array(repeating: ccw, count: counterClockwise) {
            for (line, level) in transitions {
                scripts[line].append(Edge(level: level, timeNs: timeNs))
                timeNs += stepNs
            }
        }
        return SimulatedLines(initialLevels: [.high, .high], scripts: scripts.map { $0.makeIterator() })
    }

    /// Runs `lines` as one encoder to the end with `sink`; returns the detents decoded.
    static func run(_ lines: SimulatedLines, sink: MQTTSink) throws -> [EncoderEvent] {
        var detents: [EncoderEvent] = []
        let collector = CallbackSink { if case .rotation(OutputSource(input: 0, line: 0), let detent) = $0 { detents.append(detent) } }
        let loop = try EventLoop(
            clock: .realTime(), source: lines, plan: PipelinePlan(lines: [.raw, .raw], encoders: [EncoderPlan(lineA: 0, lineB: 1)]), sinks: [collector, sink],
            limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        _ = try loop.run()
        #expect(sink.disconnectedCleanly)
        return detents
    }

    /// Live messages on the encoder's `leaf` topic (a persistent subscriber that reconnects also gets retained copies).
    static func live(_ subscriber: Subscriber, _ leaf: String) -> [String] {
        subscriber.messages.filter { !$0.retained && $0.topic == "test/pi/volume/\(leaf)" }.map(\.payload)
    }

    static func retainedPosition(_ broker: Broker) throws -> String {
        try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "test/pi/volume/position", "-C", "1", "-W", "3", "-F", "%r %p"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func eachDetentIsPublishedWithItsPositionRetained() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/volume/#"], name: "encoder")
        let sink = try MQTTSink(settings: Base.settings(broker), inputs: [Self.encoder], softwareVersion: "t", logger: Base.logger)
        // Slow turns, from 1 s on: the sink is connected by then even on a loaded machine, and each
        // position is acknowledged before the next, so none waits long enough to be replaced.
        let detents = try Self.run(Self.turns(clockwise: 5, counterClockwise: 2, stepNs: 25 * Base.ms, startMs: 1_000), sink: sink)
        #expect(detents.map(\.position) == [1, 2, 3, 4, 5, 4, 3])
        let expected = detents.map { String(decoding: EventWriter.jsonObject(rotation: $0, fields: Self.encoder.eventFields), as: UTF8.self) }
        subscriber.wait { _ in Self.live(subscriber, "position").count >= 1 + detents.count }
        #expect(Self.live(subscriber, "event") == expected)
        #expect(expected.first?.hasPrefix(#"{"event":"rotate","direction":"cw","position":1,"velocity":"#) == true)
        // The start position first, then one per detent: slow turns replace nothing.
        #expect(Self.live(subscriber, "position") == ["0", "1", "2", "3", "4", "5", "4", "3"])
        let retained = try Self.retainedPosition(broker)
        #expect(retained == "1 3")
        #expect(sink.statistics.superseded == 0 && sink.statistics.dropped == 0)
        // The start position, the encoder's health read at the start and at the stop (its counts
        // changed), an event and a position per detent.
        #expect(sink.statistics.delivered == 3 + 2 * detents.count)
    }

    /// 500 detents in one second: every event arrives, in order; positions only rise, end at the
    /// last one, and those not published were replaced by a newer one while waiting.
    @Test func aFlickOf500DetentsASecondDeliversEveryEventAndTheLatestPosition() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/volume/#"], name: "flick")
        let sink = try MQTTSink(settings: Base.settings(broker), inputs: [Self.encoder], softwareVersion: "t", logger: Base.logger)
        let detents = try Self.run(Self.turns(clockwise: 500, counterClockwise: 0, stepNs: 500_000), sink: sink)
        #expect(detents.count == 500)
        let expected = detents.map { String(decoding: EventWriter.jsonObject(rotation: $0, fields: Self.encoder.eventFields), as: UTF8.self) }
        subscriber.wait { _ in Self.live(subscriber, "event").count >= expected.count && Self.live(subscriber, "position").last == "500" }
        #expect(Self.live(subscriber, "event") == expected)
        let positions = Self.live(subscriber, "position").compactMap { Int($0) }
        #expect(positions.first == 0 && positions.last == 500)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 })
        #expect(positions.count + sink.statistics.superseded == 1 + 500)
        let retained = try Self.retainedPosition(broker)
        #expect(retained == "1 500")
        #expect(sink.statistics.dropped == 0)
    }
}
