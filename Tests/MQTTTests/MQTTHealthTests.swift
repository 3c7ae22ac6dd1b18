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

/// Each input's health as MQTT diagnostics (`MQTTHealth`, `HomeAssistantDiscovery+Health.swift`):
/// the payload, the reading at the start and then at most once per interval, only what changed, at
/// once at a report request (SIGUSR1) and at the stop, and against a real broker the retained messages
/// a run leaves.
@Suite(.serialized) struct MQTTHealthTests {
    static let ms: Int64 = 1_000_000

    @Test func thePayloadNamesEveryCount() {
        let health = InputHealth(edges: 14, bouncesAbsorbed: 10, glitchesRejected: 1, noiseBursts: 2, lostEvents: 3)
        #expect(
            String(decoding: MQTTHealth.payload(health), as: UTF8.self)
                == #"{"edges":14,"bounces_absorbed":10,"glitches_rejected":1,"noise_bursts":2,"lost_events":3}"#)
    }

    /// The first reading publishes every input; later ones only the inputs that changed, and each
    /// reading sets the next one an interval later.
    @Test func readingsPublishWhatChangedOncePerInterval() {
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 3 * Self.ms)))
        var pipeline = ButtonPipeline(plans: [plan, plan], initialLevels: [.high, .high], atNs: 0)
        var health = MQTTHealth(inputs: [.init(name: "a", input: 0), .init(name: "b", input: 1)], intervalNs: 1_000 * Self.ms)
        #expect(health.dueNs == .max, "nothing before the run starts")
        health.begin(atNs: 5 * Self.ms)
        #expect(health.dueNs == 5 * Self.ms)
        #expect(health.changes(in: pipeline, atNs: 5 * Self.ms).map(\.input.name) == ["a", "b"])
        #expect(health.dueNs == 1_005 * Self.ms)
        #expect(health.changes(in: pipeline, atNs: 1_005 * Self.ms).isEmpty, "nothing changed")
        // A glitch on b: only b goes out, counted once its window is over.
        var outputs: [PipelineOutput] = []
        pipeline.receive(LineEdge(line: 1, edge: Edge(level: .low, timeNs: 1_100 * Self.ms)), into: &outputs)
        pipeline.receive(LineEdge(line: 1, edge: Edge(level: .high, timeNs: 1_101 * Self.ms)), into: &outputs)
        let changes = health.changes(in: pipeline, atNs: 2_005 * Self.ms)
        #expect(changes.map(\.input.name) == ["b"])
        #expect(changes.first?.health == InputHealth(edges: 2, glitchesRejected: 1))
        #expect(health.dueNs == 3_005 * Self.ms)
    }

    @Test func anInputOutsideTheRunReadsAsNothing() {
        let pipeline = ButtonPipeline(plans: [.raw], initialLevels: [.high], atNs: 0)
        var health = MQTTHealth(inputs: [.init(name: "gone", input: 4), .init(name: "knob", input: 5)])
        #expect(health.changes(in: pipeline, atNs: 0).map(\.health) == [InputHealth(), InputHealth()])
    }

    @Test func theDiagnosticSensorIsAnnouncedPerInput() throws {
        let settings = MQTTSettings(host: "h", clientID: "hall-pi", base: "home/hall", hostname: "pi")
        let button = ButtonPresenter(name: "front bell", chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press])
        let discovery = HomeAssistantDiscovery(settings: settings, inputs: described([button]), softwareVersion: "0.4.0")
        let message = try #require(discovery.messages.first { $0.topic == "homeassistant/sensor/hall-pi/front_bell_health/config" })
        #expect(message.retain)
        #expect(
            String(decoding: message.payload, as: UTF8.self)
                == #"{"name":"front bell health","unique_id":"hall-pi_front_bell_health","state_topic":"home/hall/front bell/health","#
                + #""value_template":"{{ value_json.edges }}","json_attributes_topic":"home/hall/front bell/health","#
                + #""state_class":"total_increasing","unit_of_measurement":"edges","entity_category":"diagnostic","icon":"mdi:pulse","#
                + MQTTSensorTests.daemonTail)
        #expect(discovery.removal.contains { $0.topic == message.topic && $0.payload.isEmpty })
    }

    /// Against the broker, readings every 400 ms: lights' bouncy press and release (4 edges, 2 absorbed)
    /// by 300 ms, then a glitch at 700 ms; power is pressed only after the last reading. Lights'
    /// health goes out at the start and at each change, retained; power's at the start and at the stop.
    @Test func aRunPublishesEachInputsHealthRetainedOnlyWhenItChanged() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/+/health"], name: "health")
        let sink = try MQTTSink(
            settings: MQTTSinkTests.settings(broker), inputs: MQTTSinkTests.buttons, softwareVersion: "t", healthIntervalNs: 400 * Self.ms,
            logger: MQTTSinkTests.logger)
        let lights = [(100, Level.low), (101, .high), (102, .low), (300, .high), (700, .low), (701, .high)].map { Edge(level: $0.1, timeNs: Int64($0.0) * Self.ms) }
        let power = [Edge(level: .low, timeNs: 1_400 * Self.ms), Edge(level: .high, timeNs: 1_440 * Self.ms)]
        let lines = SimulatedLines(initialLevels: [.high, .high], scripts: [lights.makeIterator(), power.makeIterator()])
        _ = try MQTTSinkTests.run(lines, sink: sink)
        let zero = #"{"edges":0,"bounces_absorbed":0,"glitches_rejected":0,"noise_bursts":0,"lost_events":0}"#
        let final = #"{"edges":6,"bounces_absorbed":2,"glitches_rejected":1,"noise_bursts":0,"lost_events":0}"#
        subscriber.wait { messages in
            [("lights", final), ("power", Self.powerPressed)].allSatisfy { name, payload in messages.contains { $0.topic == "test/pi/\(name)/health" && $0.payload == payload } }
        }
        let live = { (name: String) in subscriber.messages.filter { !$0.retained && $0.topic == "test/pi/\(name)/health" }.map(\.payload) }
        let lightsHealth = live("lights")
        #expect(lightsHealth.first == zero && lightsHealth.last == final, "\(lightsHealth)")
        #expect(lightsHealth.count <= 3, "a reading at the start and one per change at most: \(lightsHealth)")
        #expect(zip(lightsHealth, lightsHealth.dropFirst()).allSatisfy { $0 != $1 }, "only changes: \(lightsHealth)")
        #expect(live("power") == [zero, Self.powerPressed], "power's health changed after the last reading: its counts go out at the stop")
        #expect(try MQTTSensorSinkTests.retained(broker, "lights/health") == "1 " + final)
    }

    static let zero = #"{"edges":0,"bounces_absorbed":0,"glitches_rejected":0,"noise_bursts":0,"lost_events":0}"#
    /// Lights' bouncy press and release by 300 ms (`lightsEdges`): 4 edges, 2 absorbed.
    static let pressed = #"{"edges":4,"bounces_absorbed":2,"glitches_rejected":0,"noise_bursts":0,"lost_events":0}"#
    /// Power's press and release at 1.4 s: 2 edges.
    static let powerPressed = #"{"edges":2,"bounces_absorbed":0,"glitches_rejected":0,"noise_bursts":0,"lost_events":0}"#
    static let lightsEdges = [(100, Level.low), (101, .high), (102, .low), (300, .high)].map { Edge(level: $0.1, timeNs: Int64($0.0) * ms) }

    /// A run of 1.5 s with the default interval (a minute): the only reading due is the start's, and
    /// the stop publishes the last counts, before `offline`.
    @Test func aRunShorterThanTheIntervalLeavesItsLastCountsRetained() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/#"], name: "health-stop")
        let sink = try MQTTSink(settings: MQTTSinkTests.settings(broker), inputs: MQTTSinkTests.buttons, softwareVersion: "t", logger: MQTTSinkTests.logger)
        let power = [Edge(level: .low, timeNs: 1_400 * Self.ms), Edge(level: .high, timeNs: 1_440 * Self.ms)]
        let lines = SimulatedLines(initialLevels: [.high, .high], scripts: [Self.lightsEdges.makeIterator(), power.makeIterator()])
        _ = try MQTTSinkTests.run(lines, sink: sink)
        #expect(sink.disconnectedCleanly)
        #expect(try MQTTSensorSinkTests.retained(broker, "lights/health") == "1 " + Self.pressed)
        #expect(try MQTTSensorSinkTests.retained(broker, "power/health") == "1 " + Self.powerPressed)
        subscriber.wait { $0.last?.payload == "offline" }
        let live = subscriber.messages.filter { !$0.retained }
        let lastHealth = try #require(live.lastIndex { $0.topic == "test/pi/lights/health" })
        let offline = try #require(live.lastIndex { $0.topic == "test/pi/availability" && $0.payload == "offline" })
        #expect(live[lastHealth].payload == Self.pressed && lastHealth < offline)
    }

    /// SIGUSR1 after lights' release: its health goes out at once, not a minute later (the test reads
    /// the broker from power's press, 1.1 s later, while the run goes on).
    @Test func aReportRequestPublishesTheHealthAtOnce() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/+/health"], name: "health-report")
        let sink = try MQTTSink(settings: MQTTSinkTests.settings(broker), inputs: MQTTSinkTests.buttons, softwareVersion: "t", logger: MQTTSinkTests.logger)
        let power = [Edge(level: .low, timeNs: 1_400 * Self.ms), Edge(level: .high, timeNs: 1_440 * Self.ms)]
        let lines = SimulatedLines(initialLevels: [.high, .high], scripts: [Self.lightsEdges.makeIterator(), power.makeIterator()])
        let signals = try SignalDescriptor(requests: [.report])
        var seenWhileRunning = false
        let reporter = CallbackSink { output in
            guard case .event(let source, let event) = output, event.kind == .release || event.kind == .press else { return }
            let line = source.lineIndex
            if line == 0, event.kind == .release { pthread_kill(pthread_self(), SIGUSR1) }
            if line == 1, event.kind == .press {
                seenWhileRunning = subscriber.wait(seconds: 5) { $0.contains { $0.topic == "test/pi/lights/health" && $0.payload == Self.pressed } }
            }
        }
        let loop = try EventLoop(
            clock: .realTime(), source: lines, plan: PipelinePlan(lines: MQTTSinkTests.plans), sinks: [reporter, sink], signals: signals,
            limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        #expect(try loop.run() == .endOfInput)
        #expect(seenWhileRunning)
        let lightsHealth = subscriber.messages.filter { !$0.retained && $0.topic == "test/pi/lights/health" }.map(\.payload)
        #expect(lightsHealth == [Self.zero, Self.pressed], "the start's, then the report's; the stop's had nothing new")
    }
}
