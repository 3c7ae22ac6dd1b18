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

/// Contacts and pulse counters through the one event loop (real time, simulated lines) to a real
/// broker: a contact's state retained on `<base>/<sensor>/state` with its changes on
/// `<base>/<sensor>/event`, a counter's state retained on `<base>/<counter>/state`, throttled.
@Suite(.serialized) struct MQTTSensorSinkTests {
    typealias Base = MQTTSinkTests
    static let ms = Base.ms
    static let door = SensorPresenter(name: "door", chip: "simulated", line: 0, lineIndex: 0, deviceClass: "door")

    static func meter(intervalMs: Int64) -> CounterPresenter {
        CounterPresenter(
            name: "meter", chip: "gpiochip0", line: 21, lineIndex: 1, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 100,
            publishIntervalNs: intervalMs * ms, rateUnit: "W", rateDeviceClass: "power")
    }

    /// Line 0 a contact (starts high: off; low is on), line 1 a counter of 1000 imp/kWh from 100 (a
    /// pulse: 20 ms low), its power in W.
    static let plans = [
        LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * ms)), role: .contact(ContactConfiguration())),
        LinePlan(
            debounce: DebounceConfiguration(both: .defer(windowNs: 5 * ms)), role: .counter(initialTotal: 100, rate: MeterRateConfiguration(perPulsePerSecond: 3600))),
    ]

    /// The contact changes at `contactMs` (on, off, on...), the counter pulses at `pulsesMs`.
    static func lines(contactMs: [Int64], pulsesMs: [Int64]) -> SimulatedLines {
        let contact = contactMs.enumerated().map { Edge(level: $0.offset % 2 == 0 ? .low : .high, timeNs: $0.element * ms) }
        let pulses = pulsesMs.flatMap { [Edge(level: .low, timeNs: $0 * ms), Edge(level: .high, timeNs: ($0 + 20) * ms)] }
        return SimulatedLines(initialLevels: [.high, .high], scripts: [contact.makeIterator(), pulses.makeIterator()])
    }

    /// Runs `lines` to the end with `sink` (through `plans`); returns the contact's changes and the counter's pulses.
    static func run(_ lines: SimulatedLines, sink: MQTTSink, plans: [LinePlan] = plans) throws -> (changes: [ContactEvent], pulses: [PulseCount]) {
        var changes: [ContactEvent] = []
        var pulses: [PulseCount] = []
        let collector = CallbackSink { output in
            switch output {
            case .contact(.line(0), let change): changes.append(change)
            case .count(.line(1), let pulse): pulses.append(pulse)
            default: break
            }
        }
        let loop = try EventLoop(clock: .realTime(), source: lines, plan: PipelinePlan(lines: plans), sinks: [collector, sink], limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        _ = try loop.run()
        #expect(sink.disconnectedCleanly)
        return (changes, pulses)
    }

    static func live(_ subscriber: Subscriber, _ topic: String) -> [String] {
        subscriber.messages.filter { !$0.retained && $0.topic == "test/pi/\(topic)" }.map(\.payload)
    }

    /// The retained message on `test/pi/<topic>`: `1 <payload>`.
    static func retained(_ broker: Broker, _ topic: String) throws -> String {
        try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "test/pi/\(topic)", "-C", "1", "-W", "3", "-F", "%r %p"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The `total` of a counter's state.
    static func total(_ payload: String) -> Int64? {
        guard payload.hasPrefix(#"{"total":"#), let end = payload.firstIndex(of: ",") else { return nil }
        return Int64(payload[payload.index(payload.startIndex, offsetBy: 9)..<end])
    }

    /// A button whose line is not the run's first (a contact's comes before it, as a roster may lay
    /// them out): its state and events are published under its own name, found by its run line.
    @Test func aButtonOnALaterLineThanAContactPublishesItsOwnStates() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/#"], name: "button-after-contact")
        let bell = ButtonPresenter(name: "bell", chip: "simulated", line: 1, lineIndex: 1, gestures: [.press, .release])
        let sink = try MQTTSink(settings: Base.settings(broker), inputs: [bell, Self.door], softwareVersion: "t", logger: Base.logger)
        let plans = [Self.plans[0], LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * Self.ms)))]
        let contact = [Edge(level: .low, timeNs: 200 * Self.ms)]
        let press = [Edge(level: .low, timeNs: 300 * Self.ms), Edge(level: .high, timeNs: 400 * Self.ms)]
        let lines = SimulatedLines(initialLevels: [.high, .high], scripts: [contact.makeIterator(), press.makeIterator()])
        let loop = try EventLoop(clock: .realTime(), source: lines, plan: PipelinePlan(lines: plans), sinks: [sink], limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        _ = try loop.run()
        #expect(sink.disconnectedCleanly)
        subscriber.wait { _ in Self.live(subscriber, "bell/state").count >= 3 && Self.live(subscriber, "door/state").count >= 2 }
        #expect(Self.live(subscriber, "bell/state") == ["released", "pressed", "released"])
        #expect(Self.live(subscriber, "bell/event").count == 2)
        #expect(Self.live(subscriber, "door/state") == ["off", "on"])
    }

    @Test func statesAreRetainedAtTheStartAndAtEachChange() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/#"], name: "contacts")
        let meter = Self.meter(intervalMs: 100)
        let sink = try MQTTSink(settings: Base.settings(broker), inputs: [Self.door, meter], softwareVersion: "t", logger: Base.logger)
        let (changes, pulses) = try Self.run(Self.lines(contactMs: [200, 600, 900], pulsesMs: [250, 550, 850]), sink: sink)
        #expect(changes.map(\.isOn) == [true, false, true])
        #expect(pulses.map(\.total) == [101, 102, 103])
        subscriber.wait { _ in Self.live(subscriber, "door/state").count >= 4 && Self.live(subscriber, "meter/state").count >= 4 }
        // The state read at the start (off), then each change; every change's JSON on the event topic.
        #expect(Self.live(subscriber, "door/state") == ["off", "on", "off", "on"])
        let events = changes.map { String(decoding: EventWriter.jsonObject(contact: $0, fields: Self.door.eventFields), as: UTF8.self) }
        #expect(Self.live(subscriber, "door/event") == events)
        #expect(events.last?.hasPrefix(#"{"event":"state","state":"on","time_ns":"#) == true)
        #expect(events.last?.contains(#","previous_ns":300000000,"sensor":"door","chip":"simulated","line":0}"#) == true)
        // Pulses 300 ms apart with a 100 ms interval: each goes at once, after the start total; 300 ms
        // at 1000 imp/kWh is 12 kW.
        let states = Self.live(subscriber, "meter/state")
        #expect(states == [
            #"{"total":100,"value":0.1,"rate_per_min":0,"rate":0}"#, #"{"total":101,"value":0.101,"rate_per_min":0,"rate":0}"#,
            #"{"total":102,"value":0.102,"rate_per_min":200,"rate":12000}"#, #"{"total":103,"value":0.103,"rate_per_min":200,"rate":12000}"#,
        ])
        #expect(try Self.retained(broker, "door/state") == "1 on")
        #expect(try Self.retained(broker, "meter/state") == #"1 {"total":103,"value":0.103,"rate_per_min":200,"rate":12000}"#)
        // Discovery: the door's binary sensor, the meter's total sensor and its power sensor, retained.
        let discovery = try Broker.run(
            "/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/#", "-W", "2", "-F", "%t"], check: false)
        #expect(discovery.contains("homeassistant/binary_sensor/test-pi-\(getpid())/door/config"))
        #expect(discovery.contains("homeassistant/sensor/test-pi-\(getpid())/meter/config"))
        #expect(discovery.contains("homeassistant/sensor/test-pi-\(getpid())/meter_rate/config"))
    }

    /// With no pulse the power falls on the retained state, then is 0 at the counter's timeout: pulses
    /// 300 ms apart (12 kW), its falls every 100 ms from 400 ms after the last one, 0 at 1 s after it.
    @Test func aMetersFallingPowerAndItsZeroAreRetained() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/meter/state"], name: "falls")
        let meter = Self.meter(intervalMs: 100)
        let sink = try MQTTSink(settings: Base.settings(broker), inputs: [Self.door, meter], softwareVersion: "t", logger: Base.logger)
        let rate = MeterRateConfiguration(perPulsePerSecond: 3600, timeoutNs: 1_000 * Self.ms, reportIntervalNs: 100 * Self.ms)
        let plans = [Self.plans[0], LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * Self.ms)), role: .counter(initialTotal: 100, rate: rate))]
        // The door's change at 2 s keeps the run going past the timeout (1.5 s).
        let (_, pulses) = try Self.run(Self.lines(contactMs: [2000], pulsesMs: [200, 500]), sink: sink, plans: plans)
        #expect(pulses.map(\.rate) == [0, 12000])
        subscriber.wait { _ in Self.live(subscriber, "meter/state").last?.hasSuffix(#""rate":0}"#) == true && Self.live(subscriber, "meter/state").count > 3 }
        let rates = Self.live(subscriber, "meter/state").compactMap { payload in
            payload.range(of: #""rate":"#).flatMap { Double(payload[$0.upperBound...].dropLast()) }
        }
        // The start's 0, the first pulse's 0, 12 kW, then only falling (3600 J over 0.8 s, 0.9 s...), down to 0.
        #expect(Array(rates.prefix(3)) == [0, 0, 12000])
        #expect(rates.dropFirst(3).contains(9000), "the first fall, 3600 J over the 0.4 s since the last onset: \(rates)")
        #expect(zip(rates.dropFirst(2), rates.dropFirst(3)).allSatisfy { $0 > $1 }, "\(rates)")
        #expect(rates.last == 0)
        #expect(try Self.retained(broker, "meter/state") == #"1 {"total":102,"value":0.102,"rate_per_min":0,"rate":0}"#)
    }

    /// `run --remove-discovery` with the same contacts and counters leaves none of their configurations
    /// (their diagnostic health sensors included).
    @Test func removeDiscoveryClearsTheContactsAndCountersConfigurations() throws {
        let broker = try Broker()
        let settings = Base.settings(broker)
        let meter = Self.meter(intervalMs: 100)
        let publisher = try MQTTSink(settings: settings, inputs: [Self.door, meter], softwareVersion: "t", logger: Base.logger)
        _ = try Self.run(Self.lines(contactMs: [200], pulsesMs: [250]), sink: publisher)
        let arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/#", "-W", "1", "-F", "%t"]
        let before = try Broker.run("/usr/bin/mosquitto_sub", arguments, check: false).split(separator: "\n").sorted()
        let node = "test-pi-\(getpid())"
        #expect(
            before.map(String.init) == [
                "homeassistant/binary_sensor/\(node)/door/config", "homeassistant/sensor/\(node)/door_health/config",
                "homeassistant/sensor/\(node)/meter/config", "homeassistant/sensor/\(node)/meter_health/config",
                "homeassistant/sensor/\(node)/meter_rate/config",
            ])
        let remover = try MQTTSink(
            settings: settings, inputs: [Self.door, meter], softwareVersion: "t", mode: .removeDiscovery, logger: Base.logger)
        let loop = try EventLoop(
            clock: .monotonic, source: SimulatedLines(initialLevels: [], scripts: []), plan: PipelinePlan(lines: []), sinks: [remover],
            limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        #expect(try loop.run() == .endOfInput)
        #expect(remover.disconnectedCleanly && remover.statistics.discoveryMessages == 5)
        #expect(try Broker.run("/usr/bin/mosquitto_sub", arguments, check: false).isEmpty)
    }

    /// 50 pulses in 2 s with a 1 s interval: at most 3 state messages after the start's, totals only
    /// rising, the last one (retained) the final total.
    @Test func fiftyPulsesInTwoSecondsAreThrottledToTheLatestTotal() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/#"], name: "burst")
        let sink = try MQTTSink(
            settings: Base.settings(broker), inputs: [Self.meter(intervalMs: 1000)], softwareVersion: "t", logger: Base.logger)
        let pulsesMs = (0..<50).map { 200 + Int64($0) * 40 }
        let (_, pulses) = try Self.run(Self.lines(contactMs: [], pulsesMs: pulsesMs), sink: sink)
        #expect(pulses.map(\.total) == Array(101...150))
        subscriber.wait { _ in Self.live(subscriber, "meter/state").last.flatMap(Self.total) == 150 }
        let totals = Self.live(subscriber, "meter/state").compactMap(Self.total)
        #expect(totals.first == 100 && totals.last == 150)
        #expect(totals.count - 1 <= 3 && totals.count - 1 >= 2)
        #expect(zip(totals, totals.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try Self.retained(broker, "meter/state").hasPrefix(#"1 {"total":150,"value":0.15,"rate_per_min":1500,"rate":90000}"#))
        #expect(sink.statistics.dropped == 0)
    }

    /// A burst's last total waits for the interval and goes at its deadline, not at the next
    /// wakeup: the sink's deadline wakes the loop (here 500 ms after the start, over a second before
    /// the contact's change that is the next edge).
    @Test func theWaitingTotalGoesAtItsDeadline() throws {
        let broker = try Broker()
        let output = broker.path("timed.txt")
        let subscriber = try Broker.spawn(
            ["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(broker.port), "-t", "test/pi/#", "-q", "1", "-F", "%U\t%t\t%p"], output: output)
        defer {
            subscriber.signal(SIGKILL)
            _ = subscriber.reap(waiting: true)
        }
        Thread.sleep(forTimeInterval: 0.3)
        let sink = try MQTTSink(
            settings: Base.settings(broker), inputs: [Self.door, Self.meter(intervalMs: 500)], softwareVersion: "t",
            logger: Base.logger)
        // The run's start on the subscriber's clock (both are the wall clock): the start's total goes
        // when the broker is reached, which a loaded machine may delay; its throttle counts from the start.
        let runStart = Date().timeIntervalSince1970
        _ = try Self.run(Self.lines(contactMs: [1700], pulsesMs: [200, 240, 280, 320, 360]), sink: sink)
        func arrivals() -> [(seconds: Double, topic: String, payload: String)] {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
                let parts = line.split(separator: "\t", maxSplits: 2).map(String.init)
                guard parts.count == 3, let seconds = Double(parts[0]) else { return nil }
                return (seconds, parts[1], parts[2])
            }
        }
        let end = Date().addingTimeInterval(10)
        while Date() < end, !arrivals().contains(where: { $0.topic == "test/pi/door/state" && $0.payload == "on" }) { Thread.sleep(forTimeInterval: 0.05) }
        let received = arrivals()
        let start = received.first { $0.topic == "test/pi/meter/state" && Self.total($0.payload) == 100 }
        let last = received.first { $0.topic == "test/pi/meter/state" && Self.total($0.payload) == 105 }
        let on = received.first { $0.topic == "test/pi/door/state" && $0.payload == "on" }
        #expect(received.filter { $0.topic == "test/pi/meter/state" }.compactMap { Self.total($0.payload) } == [100, 105])
        guard start != nil, let last, let on else {
            Issue.record("missing messages: \(received)")
            return
        }
        // Without the deadline the loop would wake only for the connection's own (about 1 s) or the edge.
        #expect(last.seconds - runStart >= 0.45 && last.seconds - runStart < 0.95, "\(last.seconds - runStart) s after the start")
        #expect(on.seconds - last.seconds >= 0.6)
    }
}
