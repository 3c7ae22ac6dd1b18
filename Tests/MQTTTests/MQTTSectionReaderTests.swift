@testable import ConfigurationFile
import DebounceCore
import EventOutput
import Foundation
import InputModel
import Inputs
@testable import MQTT
import Settings
import Testing
import YAMLDocument

/// The `mqtt:` section: its key names (as Home Assistant writes them), defaults, and errors that say what to write.
@Suite struct MQTTSectionReaderTests {
    func read(_ yaml: String) throws(ConfigurationError) -> MQTTSettings {
        let reader = ConfigurationReader(file: "test.yaml", text: yaml, programs: nil, sections: InputKinds.sections)
        guard let node = try? YAMLNode.compose(yaml), case .mapping(let top) = node, let section = top["mqtt"] else {
            throw ConfigurationError(file: "test.yaml", line: nil, column: nil, key: "", message: "test YAML has no mqtt:")
        }
        return try reader.readMQTT(section)
    }

    func message(_ yaml: String) -> String {
        do {
            _ = try read(yaml)
            return ""
        } catch {
            return error.description
        }
    }

    @Test func theIssuesExampleReadsAsWritten() throws {
        let settings = try read("""
            mqtt:
              url: mqtts://broker.local:8883
              client_id: hall-pi
              username: pi
              password_file: /etc/gpio-debounce/mqtt-password
              ca_file: /etc/ssl/certs/my-ca.pem
              base: home/hall-pi
              qos: 1
              discovery: homeassistant
              queue: 1000
            """)
        #expect(settings.transport == .mqtts && settings.host == "broker.local" && settings.port == 8883)
        #expect(settings.clientID == "hall-pi" && settings.username == "pi")
        #expect(settings.password == .file("/etc/gpio-debounce/mqtt-password"))
        #expect(settings.caFile == "/etc/ssl/certs/my-ca.pem")
        #expect(settings.base == "home/hall-pi" && settings.qos == 1 && settings.queueLimit == 1000)
        #expect(settings.discovery == .prefix("homeassistant"))
        #expect(settings.topic(input: "door", channel: "event") == "home/hall-pi/door/event")
    }

    @Test func defaultsNeedOnlyTheURL() throws {
        let settings = try read("mqtt:\n  url: mqtt://10.0.0.2\n")
        let host = Hostname.current
        #expect(settings.port == 1883 && settings.qos == 1 && settings.queueLimit == 1000)
        #expect(settings.clientID == "gpio-debounce-\(host)" && settings.base == "gpio-debounce/\(host)")
        #expect(settings.discovery == .prefix("homeassistant"))
        #expect(try read("mqtt:\n  url: mqtts://[::1]\n  discovery: false\n").port == 8883)
        #expect(try read("mqtt:\n  url: mqtts://[::1]\n  discovery: false\n").discovery == .off)
        #expect(try read("mqtt:\n  url: mqtt://h\n  password_env: MQTT_PASSWORD\n  username: u\n").password == .environment("MQTT_PASSWORD"))
    }

    @Test func mistakesSayWhatToWrite() {
        #expect(message("mqtt:\n  url: mqtt://h\n  username: pi\n  password: hunter2\n").contains("never write the password into the configuration"))
        #expect(message("mqtt:\n  url: http://h\n").contains("is not mqtt or mqtts"))
        #expect(message("mqtt:\n  url: mqtt://h:99999\n").contains("not a number from 1 to 65535"))
        #expect(message("mqtt:\n  url: mqtt://user:pw@h\n").contains("use the `username:` and `password_file:` keys"))
        #expect(message("mqtt:\n  client_id: x\n").contains("needs `url:`"))
        #expect(message("mqtt:\n  url: mqtt://h\n  ca_file: /ca.pem\n").contains("`ca_file:` is for TLS"))
        #expect(message("mqtt:\n  url: mqtt://h\n  password_file: /p\n").contains("needs `username:` too"))
        #expect(message("mqtt:\n  url: mqtt://h\n  username: u\n  password_file: /p\n  password_env: P\n").contains("not both"))
        #expect(message("mqtt:\n  url: mqtt://h\n  qos: 3\n").contains("from 0 to 2"))
        #expect(message("mqtt:\n  url: mqtt://h\n  queue: 0\n").contains("from 1 to 1000000"))
        #expect(message("mqtt:\n  url: mqtt://h\n  base: home/#\n").contains("cannot be the base topic"))
        #expect(message("mqtt:\n  url: mqtt://h\n  qso: 1\n").contains("unknown key"))
    }

    /// The MQTT payload of an event is byte for byte what `--format json` prints for `run`.
    @Test func eventPayloadIsTheJSONFormatsSchema() throws {
        let button = ButtonPresenter(name: "la\"mp", chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press])
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let output = OutputBuffer(fileDescriptor: .init(rawValue: descriptors[1]), flushThreshold: 0)
        let writer = EventWriter(format: .json, output: output)
        let events = [ButtonEvent(kind: .click, timeNs: 5_123_456_789, onsetNs: 4_723_456_789, count: 2), ButtonEvent(kind: .press, timeNs: 7, onsetNs: 3)]
        var payloads = ""
        for event in events {
            try writer.write(event, fields: .button("la\"mp", chip: "gpiochip0", line: 17))
            payloads += String(decoding: button.updates(for: .event(.line(0), event))[0].payload, as: UTF8.self) + "\n"
        }
        close(descriptors[1])
        let printed = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile()
        let expected = """
            {"event":"click","time_ns":5123456789,"onset_ns":4723456789,"count":2,"button":"la\\"mp","chip":"gpiochip0","line":17}
            {"event":"press","time_ns":7,"onset_ns":3,"button":"la\\"mp","chip":"gpiochip0","line":17}

            """
        #expect(payloads == expected)
        #expect(String(decoding: printed, as: UTF8.self) == expected)
    }

    @Test func queueDropsTheOldestWaitingMessageAndKeepsOrder() {
        var queue = OutboundQueue(limit: 3, window: 2)
        for index in 0..<5 { queue.append(OutboundMessage(topic: "t", text: "\(index)", retain: false)) }
        #expect(queue.dropped == 2)
        #expect(queue.next?.payload == Array("2".utf8))
        queue.handedOver(mid: 10)
        queue.handedOver(mid: 11)
        #expect(queue.next == nil)  // the window is full
        queue.append(OutboundMessage(topic: "t", text: "5", retain: false))  // drops "4", the only waiting one
        #expect(queue.dropped == 3 && queue.count == 3)
        #expect(queue.acknowledge(mid: 10) && !queue.acknowledge(mid: 99))
        #expect(queue.next?.payload == Array("5".utf8))
    }

    @Test func backoffDoublesToAMinuteWithJitter() {
        var backoff = ReconnectBackoff(seed: 7)
        let delays = (0..<9).map { _ in backoff.nextDelayNs() }
        #expect(delays[0] <= 1_000_000_000 && delays[0] >= 750_000_000)
        #expect(delays[3] <= 8_000_000_000 && delays[3] >= 6_000_000_000)
        #expect(delays.allSatisfy { $0 <= ReconnectBackoff.maximumNs })
        backoff.reset()
        #expect(backoff.nextDelayNs() <= 1_000_000_000)
    }
}
