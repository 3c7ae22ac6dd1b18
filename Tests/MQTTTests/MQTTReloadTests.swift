#if canImport(Glibc)
import Glibc
#endif
import DebounceCore
import EventLoop
import Foundation
import LinuxSys
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Settings
import Simulation
import Testing

/// A reload with the same `mqtt:` section keeps the sink and its connection (`MQTTSink.adopt`): the
/// discovery of a removed input is removed from the broker (an empty retained message), an added
/// input's is published, and the connection is the first one still.
@Suite(.serialized) struct MQTTReloadTests {
    static let ms: Int64 = 1_000_000

    static func retainedDiscovery(_ broker: Broker) throws -> Set<String> {
        let topics = try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/#", "-W", "1", "-F", "%t"], check: false)
        return Set(topics.split(separator: "\n").map(String.init))
    }

    @Test func aReloadRemovesTheDiscoveryOfARemovedInputAndStaysConnected() throws {
        let broker = try Broker()
        let settings = MQTTSinkTests.settings(broker)
        let before = MQTTSinkTests.buttons
        let sink = try MQTTSink(settings: settings, inputs: before, softwareVersion: "t", logger: MQTTSinkTests.logger)
        // SIGHUP to this thread (which the descriptor blocks it on) after the second event: the loop
        // returns for a reload with the sink connected and not finished.
        let signals = try SignalDescriptor(requests: [.reload])
        var events = 0
        let hangUp = CallbackSink { output in
            guard case .event = output else { return }
            events += 1
            if events == 2 { pthread_kill(pthread_self(), SIGHUP) }
        }
        let first = try EventLoop(
            clock: .realTime(), source: MQTTSinkTests.lines(cycles: 20), plan: PipelinePlan(lines: MQTTSinkTests.plans), sinks: [hangUp, sink], signals: signals)
        #expect(try first.run() == .reloadRequested)
        #expect(sink.isConnected)
        #expect(try Self.retainedDiscovery(broker) == Set(HomeAssistantDiscovery(settings: settings, inputs: described(before), softwareVersion: "t").messages.map(\.topic)))

        // After: lights kept on line 0, power removed, doorbell added on line 1.
        let after = [
            before[0], ButtonPresenter(name: "doorbell", chip: "simulated", line: 1, lineIndex: 1, configuration: GestureConfiguration(holdNs: 500 * Self.ms)),
        ]
        sink.adopt(try MQTTSink(settings: settings, inputs: after, softwareVersion: "t", logger: MQTTSinkTests.logger))
        let second = try EventLoop(
            clock: .realTime(), source: MQTTSinkTests.lines(cycles: 2), plan: PipelinePlan(lines: MQTTSinkTests.plans), sinks: [sink], signals: signals,
            limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        second.linesCarriedOver = [0]
        #expect(try second.run() == .endOfInput)
        #expect(sink.disconnectedCleanly)
        #expect(sink.statistics.connects == 1)
        let expected = Set(HomeAssistantDiscovery(settings: settings, inputs: described(after), softwareVersion: "t").messages.map(\.topic))
        let removed = Set(HomeAssistantDiscovery(settings: settings, inputs: described(before), softwareVersion: "t").messages.map(\.topic)).subtracting(expected)
        #expect(!removed.isEmpty && removed.allSatisfy { $0.contains("power") })
        #expect(try Self.retainedDiscovery(broker) == expected)
        // The added button's state is published (retained); the removed one's is not published again.
        let states = try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "test/pi/+/state", "-W", "1", "-F", "%t %p"], check: false)
        #expect(states.contains("test/pi/doorbell/state released"), "\(states)")
        // The added button is available; the removed one's availability topic is emptied.
        let available = try Broker.run(
            "/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "test/pi/+/availability", "-W", "1", "-F", "%t %p"], check: false)
        #expect(available.contains("test/pi/doorbell/availability online") && available.contains("test/pi/lights/availability online"), "\(available)")
        #expect(!available.contains("test/pi/power/"), "\(available)")
    }
}
