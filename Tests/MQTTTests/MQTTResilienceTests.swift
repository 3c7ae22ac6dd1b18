import DebounceCore
import EventLoop
import Foundation
import LinuxSys
import Logging
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Simulation
import Testing

/// What the broker does to us: restarts, refusals, TLS, and a client that vanishes.
@Suite(.serialized) struct MQTTResilienceTests {
    typealias Base = MQTTSinkTests

    /// The broker stops answering (SIGSTOP: our messages sit unacknowledged), is killed (SIGKILL) and
    /// restarted 2 s later: every event arrives, in order, once the sink has reconnected.
    @Test func brokerKilledAndRestartedMidRunLosesNoEvent() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/+/event"])
        Thread.sleep(forTimeInterval: 1.2)  // the subscriber's session is saved (autosave_interval 1)
        let sink = try MQTTSink(settings: Base.settings(broker), inputs: Base.buttons, softwareVersion: "t", logger: Base.logger)
        let chaos = Thread {
            Thread.sleep(forTimeInterval: 1.0)
            broker.stop(signal: SIGSTOP)
            Thread.sleep(forTimeInterval: 0.5)
            broker.stop(signal: SIGKILL)
            Thread.sleep(forTimeInterval: 2.0)
            try? broker.start()
        }
        chaos.start()
        let started = Date()
        let events = try Base.run(Base.lines(cycles: 20), sink: sink, graceSeconds: 20)
        let elapsed = Date().timeIntervalSince(started)
        let expected = Base.expectedPayloads(events).map(\.payload)
        subscriber.wait(seconds: 15) { Set($0.map(\.payload)).count >= expected.count }
        let received = subscriber.messages.map(\.payload)
        // QoS 1 is at least once: drop repeats (each event's JSON is unique), keep first arrivals.
        var seen = Set<String>()
        let firstArrivals = received.filter { seen.insert($0).inserted }
        #expect(firstArrivals == expected)
        #expect(sink.statistics.connects >= 2)
        #expect(sink.statistics.dropped == 0)
        print("mqtt restart: \(expected.count) events, \(received.count - firstArrivals.count) repeated, \(sink.statistics.connects) connects, run \(String(format: "%.1f", elapsed)) s")
    }

    /// The broker is killed and restarted without its persistence file (it has forgotten every
    /// retained message): once the sink is connected again, every entity's state is retained again,
    /// the button's, the contact's and the counter's, though none of them changed after the restart.
    @Test func aBrokerRestartedWithoutItsRetainedStatesGetsThemAgain() throws {
        let broker = try Broker()
        let ms = Base.ms
        let bell = ButtonPresenter(name: "bell", chip: "simulated", line: 2, lineIndex: 2, gestures: [.press, .release])
        let sink = try MQTTSink(
            settings: Base.settings(broker), inputs: [bell, MQTTSensorSinkTests.door, MQTTSensorSinkTests.meter(intervalMs: 100)],
            softwareVersion: "t", logger: Base.logger)
        let chaos = Thread {
            Thread.sleep(forTimeInterval: 1.0)
            broker.stop(signal: SIGKILL)
            try? FileManager.default.removeItem(atPath: broker.path("mosquitto.db"))
            Thread.sleep(forTimeInterval: 0.5)
            try? broker.start()
        }
        chaos.start()
        // The contact goes on at 200 ms, the meter pulses at 300 ms, the bell is pressed at 400 ms;
        // then nothing changes until a 1 ms glitch on the meter's line at 4 s, which makes no pulse.
        let contact = [Edge(level: .low, timeNs: 200 * ms)]
        let meter = [Edge(level: .low, timeNs: 300 * ms), Edge(level: .high, timeNs: 320 * ms), Edge(level: .low, timeNs: 4_000 * ms), Edge(level: .high, timeNs: 4_001 * ms)]
        let press = [Edge(level: .low, timeNs: 400 * ms), Edge(level: .high, timeNs: 500 * ms)]
        let lines = SimulatedLines(initialLevels: [.high, .high, .high], scripts: [contact.makeIterator(), meter.makeIterator(), press.makeIterator()])
        let plans = MQTTSensorSinkTests.plans + [LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5 * ms)))]
        let loop = try EventLoop(clock: .realTime(), source: lines, plan: PipelinePlan(lines: plans), sinks: [sink], limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        _ = try loop.run()
        #expect(sink.statistics.connects >= 2)
        #expect(try MQTTSensorSinkTests.retained(broker, "door/state") == "1 on")
        #expect(try MQTTSensorSinkTests.retained(broker, "bell/state") == "1 released")
        #expect(MQTTSensorSinkTests.total(try MQTTSensorSinkTests.retained(broker, "meter/state").dropFirst(2).description) == 101)
    }

    /// A full queue drops the oldest: with the broker gone for the whole run and room for 5, the
    /// last 5 events and states are what arrives once it is back.
    @Test func fullQueueDropsTheOldestAndCountsThem() throws {
        let broker = try Broker()
        broker.stop(signal: SIGKILL)
        var settings = Base.settings(broker)
        settings.queueLimit = 5
        let sink = try MQTTSink(settings: settings, inputs: Base.buttons, softwareVersion: "t", logger: Base.logger)
        let events = try Base.run(Base.lines(cycles: 3), sink: sink, graceSeconds: 1)
        // The states at the start, each button's health read at the start and at the stop, the events and their states.
        let messages = 3 * Base.buttons.count + events.count + events.filter { $0.event.kind == .press || $0.event.kind == .release }.count
        #expect(sink.statistics.dropped == messages - 5)
        #expect(sink.statistics.delivered == 0)
        #expect(sink.lastError != nil)
    }

    /// A password file and an ACL on the broker: a wrong password is refused with the message that
    /// says what to check; the right one connects and delivers.
    @Test func wrongPasswordIsRefusedWithAClearError() throws {
        let broker = try Broker(Broker.Options(users: ["pi": "right horse"], acl: "user pi\ntopic readwrite test/pi/#\ntopic readwrite homeassistant/#\n"))
        let wrong = broker.path("wrong-password")
        try "battery staple\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        var settings = Base.settings(broker)
        settings.username = "pi"
        settings.password = .file(wrong)
        let refused = try MQTTSink(settings: settings, inputs: Base.buttons, softwareVersion: "t", logger: Base.logger)
        _ = try Base.run(Base.lines(cycles: 2), sink: refused, graceSeconds: 1)
        let error = try #require(refused.lastError)
        #expect(error.description.hasPrefix("the broker refused the username or password (check password_file)"))
        #expect(refused.statistics.connects == 0)

        let right = broker.path("right-password")
        try "right horse\n".write(toFile: right, atomically: true, encoding: .utf8)
        settings.password = .file(right)
        let accepted = try MQTTSink(settings: settings, inputs: Base.buttons, softwareVersion: "t", logger: Base.logger)
        let events = try Base.run(Base.lines(cycles: 2), sink: accepted)
        #expect(accepted.lastError == nil)
        // The states at the start, each button's health read at the start and at the stop, the events and their states.
        #expect(accepted.statistics.delivered == 3 * Base.buttons.count + events.count + events.filter { $0.event.kind == .press || $0.event.kind == .release }.count)

        settings.password = .file(broker.path("missing"))
        #expect(throws: MQTTError.self) { try MQTTSink(settings: settings, inputs: Base.buttons, softwareVersion: "t", logger: Base.logger) }
    }

    /// TLS with a CA the test makes: trusted, events arrive; another CA, the handshake fails with the
    /// TLS message.
    @Test func tlsWithTheTestsOwnCertificateAuthority() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func openssl(_ arguments: String) throws { try Broker.run("/bin/sh", ["-c", "cd '\(directory)' && openssl \(arguments) 2>/dev/null"]) }
        for ca in ["ca", "other-ca"] {
            try openssl("req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=\(ca) -keyout \(ca).key -out \(ca).pem")
        }
        try openssl("req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout server.key -out server.csr")
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: "\(directory)/san.ext", atomically: true, encoding: .utf8)
        try openssl("x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.pem")
        let broker = try Broker(Broker.Options(tls: ("\(directory)/server.pem", "\(directory)/server.key", "\(directory)/ca.pem")))

        var settings = Base.settings(broker, transport: .mqtts, host: "localhost")
        settings.caFile = "\(directory)/ca.pem"
        let trusted = try MQTTSink(settings: settings, inputs: Base.buttons, softwareVersion: "t", logger: Base.logger)
        let events = try Base.run(Base.lines(cycles: 2), sink: trusted)
        #expect(trusted.lastError == nil)
        #expect(trusted.statistics.connects == 1)
        // The states at the start, each button's health read at the start and at the stop, the events and their states.
        #expect(trusted.statistics.delivered == 3 * Base.buttons.count + events.count + events.filter { $0.event.kind == .press || $0.event.kind == .release }.count)

        // Idle on TLS: the loop sleeps between the two presses (no busy loop on the socket's writability).
        let idle = try MQTTSink(settings: settings, inputs: Base.buttons, softwareVersion: "t", logger: Base.logger)
        let script: [Edge] = [Edge(level: .low, timeNs: 200 * Base.ms), Edge(level: .high, timeNs: 240 * Base.ms),
                              Edge(level: .low, timeNs: 2_200 * Base.ms), Edge(level: .high, timeNs: 2_240 * Base.ms)]
        let loop = try EventLoop(
            clock: .realTime(), source: SimulatedLines(initialLevels: [.high, .high], scripts: [script.makeIterator(), [Edge]().makeIterator()]),
            plan: PipelinePlan(lines: Base.plans), sinks: [idle], limits: LoopLimits(shutdownGraceNs: 5_000_000_000))
        _ = try loop.run()
        #expect(idle.disconnectedCleanly)
        #expect(loop.wakeups < 80, "wakeups over 2.5 s on TLS: \(loop.wakeups)")
        print("mqtt tls idle: \(loop.wakeups) wakeups in a 2.5 s run with 2 presses")

        settings.caFile = "\(directory)/other-ca.pem"
        let untrusted = try MQTTSink(settings: settings, inputs: Base.buttons, softwareVersion: "t", logger: Base.logger)
        _ = try Base.run(Base.lines(cycles: 1), sink: untrusted, graceSeconds: 1)
        #expect(untrusted.lastError == .tls(host: "localhost"))
        #expect(untrusted.statistics.connects == 0)
    }

    /// A client that vanishes without DISCONNECT (as a process killed with -9 does: its socket just
    /// closes) makes the broker publish the retained last will: `offline`.
    @Test func lastWillIsOfflineWhenTheClientVanishes() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/availability"])
        do {
            let sink = try MQTTSink(settings: Base.settings(broker), inputs: Base.buttons, softwareVersion: "t", logger: Base.logger)
            // Run for 1 s and stop without finishing: the loop's duration ends it, but the sink is
            // dropped before `finish` would send offline, by running it outside a loop.
            let clock = LoopClock.realTime()
            let end = clock.nowNs + 1_000_000_000
            while clock.nowNs < end, !sink.isConnected {
                sink.descriptorReady(0, events: PollEvents(rawValue: 1))
                sink.advance(toNs: clock.nowNs)
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(sink.isConnected)
            for _ in 0..<20 {
                sink.descriptorReady(0, events: PollEvents(rawValue: 1))
                sink.advance(toNs: clock.nowNs)
                Thread.sleep(forTimeInterval: 0.01)
            }
        }  // the sink goes away: mosquitto_destroy closes the socket without DISCONNECT
        #expect(subscriber.wait(seconds: 5) { $0.map(\.payload) == ["online", "offline"] || $0.map(\.payload).suffix(2) == ["online", "offline"] })
        let retained = try Broker.run("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "test/pi/availability", "-C", "1", "-W", "3", "-F", "%r %p"])
        #expect(retained.trimmingCharacters(in: .whitespacesAndNewlines) == "1 offline")
    }
}
