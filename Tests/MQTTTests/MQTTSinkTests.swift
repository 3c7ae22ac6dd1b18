import DebounceCore
import EventLoop
import EventOutput
import Foundation
import Logging
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Settings
import Simulation
import Testing

/// The MQTT sink against a real broker (Debian's mosquitto on loopback), driven by the one event loop
/// in real time with simulated lines.
@Suite(.serialized) struct MQTTSinkTests {
    static let ms: Int64 = 1_000_000
    static let logger: Logger = {
        var logger = Logger(label: "mqtt-test", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = ProcessInfo.processInfo.environment["MQTT_TEST_LOG"] == nil ? .critical : .debug
        return logger
    }()

    /// Two buttons pressed in turn every `periodMs` (clean edges, 40 ms down), `cycles` times each.
    static func lines(cycles: Int, periodMs: Int64 = 100, startMs: Int64 = 200) -> SimulatedLines {
        func script(offsetMs: Int64) -> [Edge] {
            (0..<cycles).flatMap { cycle -> [Edge] in
                let t = (startMs + offsetMs + Int64(cycle) * periodMs * 2) * ms
                return [Edge(level: .low, timeNs: t), Edge(level: .high, timeNs: t + 40 * ms)]
            }
        }
        return SimulatedLines(initialLevels: [.high, .high], scripts: [script(offsetMs: 0).makeIterator(), script(offsetMs: periodMs).makeIterator()])
    }

    static let buttons = [
        ButtonPresenter(name: "lights", chip: "simulated", line: 0, lineIndex: 0, configuration: GestureConfiguration(clickWindowNs: 30 * ms, clickPolicy: .immediate)),
        ButtonPresenter(name: "power", chip: "simulated", line: 1, lineIndex: 1, configuration: GestureConfiguration(holdNs: 500 * ms)),
    ]

    /// An encoder announced beside the buttons (its detents: `MQTTEncoderSinkTests`).
    static let encoders = [EncoderPresenter(name: "volume", input: 2, chip: "simulated", lines: [2, 3])]

    /// The buttons, then the encoder.
    static var buttonsAndEncoder: [any InputPresenter] { buttons as [any InputPresenter] + encoders as [any InputPresenter] }

    static var plans: [LinePlan] {
        [
            LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * ms)), gestures: GestureConfiguration(clickWindowNs: 30 * ms, clickPolicy: .immediate)),
            LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * ms)), gestures: GestureConfiguration(holdNs: 500 * ms)),
        ]
    }

    static func settings(_ broker: Broker, base: String = "test/pi", transport: MQTTSettings.Transport = .mqtt, host: String = "127.0.0.1") -> MQTTSettings {
        MQTTSettings(transport: transport, host: host, port: broker.port, clientID: "test-pi-\(getpid())", base: base, discovery: .prefix("homeassistant"), keepaliveSeconds: 5)
    }

    /// Runs `lines` through the loop (real time) to the end, with `sink`; returns the events made.
    static func run(_ lines: SimulatedLines, sink: MQTTSink, graceSeconds: Int64 = 10, durationMs: Int64? = nil) throws -> [(line: Int, event: ButtonEvent)] {
        var events: [(line: Int, event: ButtonEvent)] = []
        let collector = CallbackSink { if case .event(let source, let event) = $0 { events.append((source.lineIndex, event)) } }
        let loop = try EventLoop(
            clock: .realTime(), source: lines, plan: PipelinePlan(lines: plans), sinks: [collector, sink],
            limits: LoopLimits(durationNs: durationMs.map { $0 * ms }, shutdownGraceNs: graceSeconds * 1_000_000_000))
        _ = try loop.run()
        #expect(sink.disconnectedCleanly || sink.lastError != nil)
        return events
    }

    static func expectedPayloads(_ events: [(line: Int, event: ButtonEvent)]) -> [(topic: String, payload: String)] {
        events.map { ("test/pi/\(buttons[$0.line].name)/event", String(decoding: EventWriter.jsonObject($0.event, fields: buttons[$0.line].eventFields), as: UTF8.self)) }
    }

    @Test func eventsArriveInOrderWithTheirTopicsStatesAndAvailability() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/#"])
        let sink = try MQTTSink(settings: Self.settings(broker), inputs: Self.buttons, softwareVersion: "0.1.0-test", logger: Self.logger)
        let events = try Self.run(Self.lines(cycles: 10), sink: sink)
        #expect(events.count >= 40)  // press, release, click per lights cycle; press, release per power cycle
        let expected = Self.expectedPayloads(events)
        subscriber.wait { $0.filter { $0.topic.hasSuffix("/event") }.count >= expected.count && $0.last?.payload == "offline" }
        let received = subscriber.messages
        let eventMessages = received.filter { $0.topic.hasSuffix("/event") }
        #expect(eventMessages.map(\.topic) == expected.map(\.topic))
        #expect(eventMessages.map(\.payload) == expected.map(\.payload))
        // States follow presses and releases, per button, in order.
        for (index, button) in Self.buttons.enumerated() {
            // Live messages only: a persistent subscriber that reconnects also gets the retained copy.
            let states = received.filter { !$0.retained && $0.topic == "test/pi/\(button.name)/state" }.map(\.payload)
            let kinds = events.filter { $0.line == index && ($0.event.kind == .press || $0.event.kind == .release) }
            // The state at the start first (both lines start high: released), then one per press and release.
            #expect(states == ["released"] + kinds.map { $0.event.kind == .press ? "pressed" : "released" })
        }
        // Availability: online first, offline at the clean end; both retained (the last one stays).
        let availability = received.filter { $0.topic == "test/pi/availability" }.map(\.payload)
        #expect(availability.first == "online")
        #expect(availability.last == "offline")
        let retained = try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "test/pi/availability", "-C", "1", "-W", "3", "-F", "%r %p"])
        #expect(retained.trimmingCharacters(in: .whitespacesAndNewlines) == "1 offline")
        // The states at the start, the events, a state per press and release, and each button's health
        // read at the start and at the stop (the minute's reading never came; the counts changed).
        #expect(
            sink.statistics.delivered
                == Self.buttons.count + expected.count + events.filter { $0.event.kind == .press || $0.event.kind == .release }.count + 2 * Self.buttons.count)
        #expect(sink.statistics.dropped == 0)
    }

    @Test func discoveryIsPublishedAtConnectAndAgainWhenHomeAssistantComesOnline() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["homeassistant/#"], name: "discovery")
        let sink = try MQTTSink(settings: Self.settings(broker), inputs: Self.buttonsAndEncoder, softwareVersion: "0.1.0-test", logger: Self.logger)
        let discovery = HomeAssistantDiscovery(settings: sink.settings, inputs: described(Self.buttonsAndEncoder), softwareVersion: "0.1.0-test")
        let expected = discovery.messages
        // lights: press, release, click, double, triple (+ event, binary_sensor); power: press, release, hold,
        // long release (+ 2); volume: event, sensor; a diagnostic health sensor per input
        #expect(expected.count == 5 + 2 + 4 + 2 + 2 + 3)
        // Home Assistant's birth message in the middle of the run: discovery goes out again.
        let birth = Thread {
            Thread.sleep(forTimeInterval: 1.0)
            _ = try? Broker.run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/status", "-m", "online"])
        }
        birth.start()
        _ = try Self.run(Self.lines(cycles: 12, periodMs: 100), sink: sink)
        // Live messages only: a persistent subscriber that reconnects also gets the retained copies.
        subscriber.wait { $0.filter { !$0.retained && $0.topic.hasSuffix("/config") }.count >= 2 * expected.count }
        let configs = subscriber.messages.filter { !$0.retained && $0.topic.hasSuffix("/config") }
        #expect(configs.count == 2 * expected.count)
        #expect(Set(configs.map(\.topic)) == Set(expected.map(\.topic)))
        #expect(configs.prefix(expected.count).map(\.payload) == expected.map { String(decoding: $0.payload, as: UTF8.self) })
        #expect(configs.contains { $0.topic == "homeassistant/device_automation/test-pi-\(getpid())/lights_double_click/config" })
        #expect(configs.contains { $0.topic == "homeassistant/sensor/test-pi-\(getpid())/volume/config" })
        if let dump = ProcessInfo.processInfo.environment["MQTT_DISCOVERY_DUMP"] {
            let text = configs.prefix(expected.count).map { "\($0.topic)\t\($0.payload)\n" }.joined()
            try text.write(toFile: dump, atomically: true, encoding: .utf8)
        }
    }

    @Test func removeDiscoveryClearsEveryRetainedConfiguration() throws {
        let broker = try Broker()
        let settings = Self.settings(broker)
        let publisher = try MQTTSink(settings: settings, inputs: Self.buttonsAndEncoder, softwareVersion: "t", logger: Self.logger)
        _ = try Self.run(Self.lines(cycles: 1), sink: publisher)
        let count = HomeAssistantDiscovery(settings: settings, inputs: described(Self.buttonsAndEncoder), softwareVersion: "t").messages.count
        let retainedBefore = try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/#", "-W", "1", "-F", "%t"], check: false)
        #expect(retainedBefore.split(separator: "\n").count == count)
        // As `run --remove-discovery` runs it: no lines at all, the loop stops at once and waits for the sink.
        let remover = try MQTTSink(settings: settings, inputs: Self.buttonsAndEncoder, softwareVersion: "t", mode: .removeDiscovery, logger: Self.logger)
        let loop = try EventLoop(
            clock: .monotonic, source: SimulatedLines(initialLevels: [], scripts: []), plan: PipelinePlan(lines: []), sinks: [remover],
            limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        #expect(try loop.run() == .endOfInput)
        #expect(remover.disconnectedCleanly)
        #expect(remover.statistics.discoveryMessages == count)
        let retainedAfter = try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/#", "-W", "1", "-F", "%t"], check: false)
        #expect(retainedAfter.isEmpty)
    }
}
