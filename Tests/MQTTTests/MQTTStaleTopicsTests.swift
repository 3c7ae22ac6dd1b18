import DebounceCore
import EventLoop
import Foundation
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Settings
import Simulation
import Testing

/// Retained topics of inputs the daemon no longer has (`MQTTSink+Stale.swift`): at a connect the sink
/// finds what the broker holds under its own node and base topic and empties what no input of its
/// configuration has, so that a restart after an edit leaves no entity behind; another daemon's stay.
@Suite(.serialized) struct MQTTStaleTopicsTests {
    // MARK: The sweep's bookkeeping

    @Test func filtersMatchOneLevelPerPlusAndTheRestForAHash() {
        #expect(RetainedTopicSweep.filter("homeassistant/+/pi/+/config", matches: "homeassistant/event/pi/lights/config"))
        #expect(!RetainedTopicSweep.filter("homeassistant/+/pi/+/config", matches: "homeassistant/event/other-pi/lights/config"))
        #expect(!RetainedTopicSweep.filter("homeassistant/+/pi/+/config", matches: "homeassistant/event/pi/lights/x/config"))
        #expect(RetainedTopicSweep.filter("home/pi/+/availability", matches: "home/pi/power/availability"))
        #expect(!RetainedTopicSweep.filter("home/pi/+/availability", matches: "home/pi/availability"), "the daemon's own availability is no input's")
        #expect(!RetainedTopicSweep.filter("home/pi/+/availability", matches: "home/pi-simulation/power/availability"))
        #expect(RetainedTopicSweep.filter("home/#", matches: "home") && RetainedTopicSweep.filter("home/#", matches: "home/a/b"))
    }

    /// Due 500 ms after the last SUBACK; only retained, non-empty messages on its filters are kept;
    /// without every SUBACK it gives up after 5 s, incomplete.
    @Test func theSweepIsDueAfterTheLastAcknowledgementAndKeepsOnlyRetainedMessages() {
        let filters = ["ha/+/pi/+/config", "base/+/availability"]
        var sweep = RetainedTopicSweep(filters: filters, mids: [3, 4], atNs: 1_000)
        #expect(sweep.deadlineNs == 1_000 + RetainedTopicSweep.giveUpNs && !sweep.isComplete)
        sweep.noteSubscribed(mid: 3, atNs: 2_000)
        #expect(sweep.deadlineNs == 1_000 + RetainedTopicSweep.giveUpNs, "one SUBACK of two")
        let kept = [
            sweep.note(topic: "ha/event/pi/gone/config", payload: [1], retained: true),
            sweep.note(topic: "base/gone/availability", payload: Array("online".utf8), retained: false),  // live: the sweep's, not kept
            sweep.note(topic: "base/x/availability", payload: [], retained: true),  // empty: nothing to clear
            sweep.note(topic: "ha/status", payload: Array("online".utf8), retained: true),  // not on its filters
        ]
        #expect(kept == [true, true, true, false])
        sweep.noteSubscribed(mid: 4, atNs: 3_000)
        #expect(sweep.isComplete && sweep.deadlineNs == 3_000 + RetainedTopicSweep.settleNs)
        #expect(sweep.found == ["ha/event/pi/gone/config"])
    }

    // MARK: Against the broker

    static let lights = [MQTTSinkTests.buttons[0]]

    static func retained(_ broker: Broker, _ filter: String) throws -> Set<String> {
        let lines = try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", filter, "-W", "1", "-F", "%t %p"], check: false)
        return Set(lines.split(separator: "\n").map(String.init))
    }

    static func configTopics(_ broker: Broker) throws -> Set<String> {
        Set(try retained(broker, "homeassistant/#").map { String($0.prefix { $0 != " " }) })
    }

    static func discoveryTopics(_ settings: MQTTSettings, _ buttons: [ButtonPresenter]) -> Set<String> {
        Set(HomeAssistantDiscovery(settings: settings, inputs: described(buttons), softwareVersion: "t").messages.map(\.topic))
    }

    /// A run with `buttons` to its end, cleanly.
    static func run(_ settings: MQTTSettings, _ buttons: [ButtonPresenter], mode: MQTTSink.Mode = .run) throws {
        let sink = try MQTTSink(settings: settings, inputs: buttons, softwareVersion: "t", mode: mode, logger: MQTTSinkTests.logger)
        if mode == .run {
            _ = try MQTTSinkTests.run(MQTTSinkTests.lines(cycles: 1), sink: sink)
        } else {
            let loop = try EventLoop(
                clock: .monotonic, source: SimulatedLines(initialLevels: [], scripts: []), plan: PipelinePlan(lines: []), sinks: [sink],
                limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
            _ = try loop.run()
        }
        #expect(sink.disconnectedCleanly)
    }

    /// This daemon runs with lights and power; another daemon (its own client id and base topic) with
    /// the same buttons beside it.
    static func twoDaemons(_ broker: Broker) throws -> (MQTTSettings, neighbour: MQTTSettings) {
        let settings = MQTTSinkTests.settings(broker)
        var neighbour = MQTTSinkTests.settings(broker, base: "test/other")
        neighbour.clientID = "other-pi-\(getpid())"
        try run(settings, MQTTSinkTests.buttons)
        try run(neighbour, MQTTSinkTests.buttons)
        #expect(try configTopics(broker) == discoveryTopics(settings, MQTTSinkTests.buttons).union(discoveryTopics(neighbour, MQTTSinkTests.buttons)))
        #expect(try retained(broker, "test/pi/+/availability") == ["test/pi/lights/availability online", "test/pi/power/availability online"])
        return (settings, neighbour)
    }

    /// The neighbour's entities and availability are all still there.
    static func expectNeighbourKept(_ broker: Broker, _ neighbour: MQTTSettings) throws {
        #expect(try configTopics(broker).isSuperset(of: discoveryTopics(neighbour, MQTTSinkTests.buttons)))
        #expect(try retained(broker, "test/other/+/availability") == ["test/other/lights/availability online", "test/other/power/availability online"])
    }

    @Test func aRestartWithoutAnInputClearsItsDiscoveryAndAvailabilityAndKeepsAnotherDaemons() throws {
        let broker = try Broker()
        let (settings, neighbour) = try Self.twoDaemons(broker)
        try Self.run(settings, Self.lights)  // power removed from the file
        #expect(try Self.configTopics(broker) == Self.discoveryTopics(settings, Self.lights).union(Self.discoveryTopics(neighbour, MQTTSinkTests.buttons)))
        #expect(try Self.retained(broker, "test/pi/+/availability") == ["test/pi/lights/availability online"])
        try Self.expectNeighbourKept(broker, neighbour)
    }

    @Test func aRestartWithNoInputsLeavesNothingOfTheNode() throws {
        let broker = try Broker()
        let (settings, neighbour) = try Self.twoDaemons(broker)
        try Self.run(settings, [])
        #expect(try Self.configTopics(broker) == Self.discoveryTopics(neighbour, MQTTSinkTests.buttons))
        #expect(try Self.retained(broker, "test/pi/+/availability").isEmpty)
        #expect(try Self.retained(broker, "test/pi/availability") == ["test/pi/availability offline"], "the daemon's own availability stays")
        try Self.expectNeighbourKept(broker, neighbour)
    }

    /// `--remove-discovery` with a file that no longer names power removes power's entities too.
    @Test func removeDiscoveryClearsInputsTheFileNoLongerHas() throws {
        let broker = try Broker()
        let (settings, neighbour) = try Self.twoDaemons(broker)
        try Self.run(settings, Self.lights, mode: .removeDiscovery)
        #expect(try Self.configTopics(broker) == Self.discoveryTopics(neighbour, MQTTSinkTests.buttons))
        #expect(try Self.retained(broker, "test/pi/+/availability").isEmpty)
        try Self.expectNeighbourKept(broker, neighbour)
    }
}
