import DebounceCore
import EventLoop
import Foundation
import InMemoryLogging
import Logging
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Simulation
import Testing

/// A keypad through the one event loop (real time, its keys as simulated lines, its code collected
/// by the pipeline) to a real broker: each key press and each code on `<base>/<keypad>/event`, the
/// code's digits nowhere unless `publish_code` says so, and its discovery removed with the rest.
@Suite(.serialized) struct MQTTKeypadSinkTests {
    typealias Base = MQTTSinkTests
    static let ms = Base.ms
    /// One row of four keys, `q z # *`, on run lines 0 to 3 (letters: a code of them cannot turn up
    /// by chance in a time's digits).
    static let keys: [Character] = ["q", "z", "#", "*"]
    static let code = CodeConfiguration(minLength: 4, endKeys: ["#"], clearKeys: ["*"])

    static func keypad(publishCode: Bool) -> KeypadPresenter {
        KeypadPresenter(
            name: "door", input: 0, keys: keys, lineIndices: [0, 1, 2, 3], collectsCodes: true, publishesCode: publishCode,
            namesKey: { !Self.code.collects($0) })
    }

    /// Presses (40 ms down) of `typed`'s keys, one every 100 ms from 200 ms.
    static func lines(typing typed: String) -> SimulatedLines {
        var scripts: [[Edge]] = Array(repeating: [], count: keys.count)
        for (index, key) in typed.enumerated() {
            guard let line = keys.firstIndex(of: key) else { continue }
            let t = (200 + Int64(index) * 100) * ms
            scripts[line] += [Edge(level: .low, timeNs: t), Edge(level: .high, timeNs: t + 40 * ms)]
        }
        return SimulatedLines(initialLevels: Array(repeating: .high, count: keys.count), scripts: scripts.map { $0.makeIterator() })
    }

    /// Runs `typed` on the keypad through `sink` (debounced, its code collected); returns the loop's
    /// key presses (line, time) and codes.
    static func run(typing typed: String, sink: MQTTSink) throws -> (presses: [(line: Int, timeNs: Int64)], codes: [EnteredCode]) {
        var presses: [(line: Int, timeNs: Int64)] = []
        var codes: [EnteredCode] = []
        let collector = CallbackSink(code: { source, entered in if source == OutputSource(input: 0, line: 0) { codes.append(entered) } }) { output in
            if case .event(let source, let event) = output, event.kind == .press { presses.append((source.lineIndex, event.timeNs)) }
        }
        let plans = keys.map { _ in LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * ms)), input: 0) }
        let codePlan = CodePlan(input: 0, configuration: code, keys: keys.enumerated().map { CodePlan.KeyLine(line: $0.offset, key: $0.element) })
        let loop = try EventLoop(
            clock: .realTime(), source: lines(typing: typed), plan: PipelinePlan(lines: plans, codes: [codePlan]), sinks: [collector, sink],
            limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        _ = try loop.run()
        #expect(sink.disconnectedCleanly)
        return (presses, codes)
    }

    static func events(_ subscriber: Subscriber) -> [String] {
        subscriber.messages.filter { !$0.retained && $0.topic == "test/pi/door/event" }.map(\.payload)
    }

    /// Without `publish_code`: the end and clear keys' presses and the code's length, never its digits
    /// (not on any topic, not in the log); the entity's event types say so; `--remove-discovery` clears
    /// the keypad's entities and availability.
    @Test func aCodesDigitsNeverLeaveWithoutPublishCode() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["#"], name: "keypad")
        // What the sink logs, kept to look for a code's digits.
        var logged = InMemoryLogHandler()
        logged.logLevel = .trace
        let logger = Logger(label: "keypad-test", factory: { [logged] _ in logged })
        let settings = Base.settings(broker)
        let sink = try MQTTSink(settings: settings, inputs: [Self.keypad(publishCode: false)], softwareVersion: "t", logger: logger)
        let (presses, codes) = try Self.run(typing: "qzzq#zqqz*", sink: sink)
        #expect(codes.map(\.code) == ["qzzq"])
        #expect(presses.count == 10)
        let end = presses[4].timeNs
        let clear = presses[9].timeNs
        let expected = [
            ##"{"event_type":"#","time_ns":\##(end)}"##, #"{"event_type":"code","length":4,"time_ns":\#(codes[0].timeNs)}"#,
            #"{"event_type":"*","time_ns":\#(clear)}"#,
        ]
        subscriber.wait { _ in Self.events(subscriber).count >= expected.count }
        #expect(Self.events(subscriber) == expected)
        // Nothing anywhere spells the code or the cleared keys, nor names a digit as an event.
        subscriber.wait { $0.contains { $0.topic == "test/pi/availability" && $0.payload == "offline" } }
        let everything = subscriber.messages.map { "\($0.topic) \($0.payload)" }
        #expect(!everything.isEmpty && everything.allSatisfy { !$0.contains("qzzq") && !$0.contains("zqqz") })
        #expect(!everything.contains { $0.contains(#""event_type":"q""#) || $0.contains(#""event_type":"z""#) })
        #expect(logged.entries.allSatisfy { !$0.message.description.contains("qzzq") })
        // The entity (its event types: the end and clear keys, and the code), its availability, its health.
        let node = "test-pi-\(getpid())"
        let config = subscriber.messages.first { $0.topic == "homeassistant/event/\(node)/door/config" }?.payload
        #expect(config?.contains(##""state_topic":"test/pi/door/event","event_types":["#","*","code"]"##) == true, "\(config ?? "none")")
        #expect(subscriber.messages.contains { $0.topic == "test/pi/door/availability" && $0.payload == "online" })
        let health = subscriber.messages.last { $0.topic == "test/pi/door/health" }?.payload
        #expect(health?.hasPrefix(#"{"edges":"#) == true)

        let arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/#", "-t", "test/pi/+/availability", "-W", "1", "-F", "%t"]
        let before = try Broker.run("/usr/bin/mosquitto_sub", arguments, check: false).split(separator: "\n").map(String.init).sorted()
        #expect(before == [
            "homeassistant/event/\(node)/door/config", "homeassistant/sensor/\(node)/door_health/config", "test/pi/door/availability",
        ])
        let remover = try MQTTSink(
            settings: settings, inputs: [Self.keypad(publishCode: false)], softwareVersion: "t", mode: .removeDiscovery, logger: Base.logger)
        let loop = try EventLoop(
            clock: .monotonic, source: SimulatedLines(initialLevels: [], scripts: []), plan: PipelinePlan(lines: []), sinks: [remover],
            limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        #expect(try loop.run() == .endOfInput)
        #expect(remover.disconnectedCleanly && remover.statistics.discoveryMessages == 2)
        #expect(try Broker.run("/usr/bin/mosquitto_sub", arguments, check: false).isEmpty)
    }

    /// With `publish_code: true`: every key's press, and the code with its digits.
    @Test func publishCodeSendsEveryKeyAndTheCode() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/door/event"], name: "keypad-published")
        let sink = try MQTTSink(settings: Base.settings(broker), inputs: [Self.keypad(publishCode: true)], softwareVersion: "t", logger: Base.logger)
        let (presses, codes) = try Self.run(typing: "zqqz#", sink: sink)
        #expect(codes.map(\.code) == ["zqqz"])
        let expected =
            zip("zqqz#", presses).map { key, press in #"{"event_type":"\#(key)","time_ns":\#(press.timeNs)}"# }
            + [#"{"event_type":"code","length":4,"code":"zqqz","time_ns":\#(codes[0].timeNs)}"#]
        subscriber.wait { _ in Self.events(subscriber).count >= expected.count }
        #expect(Self.events(subscriber) == expected)
    }
}
