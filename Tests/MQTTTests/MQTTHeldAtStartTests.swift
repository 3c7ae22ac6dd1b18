import DebounceCore
import EventLoop
import Foundation
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Simulation
import Testing

/// A button held while the daemon starts and then let go: its state topic says `pressed` at the start
/// (the level read) and `released` once it is let go, and `released` is what stays retained, although
/// the event stream has neither its press nor its release.
@Suite(.serialized) struct MQTTHeldAtStartTests {
    static let ms: Int64 = 1_000_000

    @Test func aButtonHeldAtTheStartEndsReleased() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/#"])
        let sink = try MQTTSink(
            settings: MQTTSinkTests.settings(broker), inputs: MQTTSinkTests.buttons, softwareVersion: "0.1.0-test", logger: MQTTSinkTests.logger)
        // Line 0 is held (low) when the run starts and let go 200 ms later; line 1 stays released.
        let lines = SimulatedLines(
            initialLevels: [.low, .high], scripts: [[Edge(level: .high, timeNs: 200 * Self.ms)].makeIterator(), [Edge]().makeIterator()])
        let events = try MQTTSinkTests.run(lines, sink: sink, durationMs: 600)
        #expect(events.filter { $0.line == 0 }.isEmpty)
        subscriber.wait { $0.last?.topic == "test/pi/availability" && $0.last?.payload == "offline" }
        let states = subscriber.messages.filter { !$0.retained && $0.topic == "test/pi/lights/state" }.map(\.payload)
        #expect(states == ["pressed", "released"])
        let retained = try Broker.run(
            "/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "test/pi/lights/state", "-C", "1", "-W", "3", "-F", "%r %p"])
        #expect(retained.trimmingCharacters(in: .whitespacesAndNewlines) == "1 released")
    }
}
