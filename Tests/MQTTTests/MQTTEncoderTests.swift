import DebounceCore
import EventOutput
import Foundation
import InputModel
import Inputs
@testable import MQTT
import Settings
import Testing

/// Rotary encoders over MQTT without a broker: topics, the detent's payload, Home Assistant's
/// discovery of the encoder's entities, and the queue under a fast flick.
@Suite struct MQTTEncoderTests {
    static let settings = MQTTSettings(host: "h", clientID: "hall-pi", base: "home/hall", hostname: "pi")
    static let button = ButtonPresenter(name: "lights", chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press, .release])
    static let encoder = EncoderPresenter(name: "vol ume", input: 1, chip: "gpiochip0", lines: [22, 23])

    @Test func topicsAreUnderTheBaseAndTheEncodersName() {
        #expect(Self.settings.topic(input: "volume", channel: "event") == "home/hall/volume/event")
        #expect(Self.settings.topic(input: "volume", channel: "position") == "home/hall/volume/position")
    }

    /// The payload of a detent is byte for byte what `--format json` prints for it.
    @Test func detentPayloadIsTheJSONFormatsLine() throws {
        let detent = EncoderEvent(direction: .counterClockwise, position: -3, velocity: 12.5, timeNs: 5_123_456_789, onsetNs: 5_100_000_000)
        let payload = String(decoding: EventWriter.jsonObject(rotation: detent, fields: Self.encoder.eventFields), as: UTF8.self)
        #expect(payload == #"{"event":"rotate","direction":"ccw","position":-3,"velocity":12.5,"time_ns":5123456789,"onset_ns":5100000000,"encoder":"vol ume","chip":"gpiochip0","lines":[22,23]}"#)
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let writer = EventWriter(format: .json, output: OutputBuffer(fileDescriptor: .init(rawValue: descriptors[1]), flushThreshold: 0))
        try writer.write(rotation: detent, fields: Self.encoder.eventFields)
        close(descriptors[1])
        let printed = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile()
        #expect(String(decoding: printed, as: UTF8.self) == payload + "\n")
    }

    @Test func discoveryAnnouncesAnEventEntityAndAPositionSensorOnTheButtonsDevice() throws {
        let discovery = HomeAssistantDiscovery(settings: Self.settings, inputs: described([Self.button, Self.encoder]), softwareVersion: "0.4.0")
        let messages = discovery.messages
        #expect(messages.map(\.topic) == [
            "homeassistant/device_automation/hall-pi/lights_press/config",
            "homeassistant/device_automation/hall-pi/lights_release/config",
            "homeassistant/event/hall-pi/lights/config",
            "homeassistant/binary_sensor/hall-pi/lights/config",
            "homeassistant/event/hall-pi/vol_ume/config",
            "homeassistant/sensor/hall-pi/vol_ume/config",
            "homeassistant/sensor/hall-pi/lights_health/config",
            "homeassistant/sensor/hall-pi/vol_ume_health/config",
        ])
        #expect(messages.allSatisfy { $0.retain })
        let device = #""device":{"identifiers":["gpio-debounce_hall-pi"],"name":"hall-pi","manufacturer":"gpio-debounce","model":"GPIO inputs","sw_version":"0.4.0"}"#
        let text = messages.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(text.allSatisfy { $0.hasSuffix(device + "}") })
        // Unavailable while the daemon is, or while the chip of line A or B is away.
        let availability = #""availability":[{"topic":"home/hall/availability"},{"topic":"home/hall/vol ume/availability"}],"availability_mode":"all","#
        let template = #"{\"event_type\":\"{{ 'rotate_right' if value_json.direction == 'cw' else 'rotate_left' }}\",\"position\":{{ value_json.position }},\"velocity\":{{ value_json.velocity }}}"#
        #expect(text[4] == #"{"name":"vol ume","unique_id":"hall-pi_vol_ume_event","state_topic":"home/hall/vol ume/event","#
            + #""event_types":["rotate_left","rotate_right"],"value_template":""# + template + #"","icon":"mdi:knob","qos":1,"#
            + availability + device + "}")
        #expect(text[5] == #"{"name":"vol ume position","unique_id":"hall-pi_vol_ume_position","state_topic":"home/hall/vol ume/position","#
            + #""state_class":"measurement","icon":"mdi:knob","qos":1,"# + availability + device + "}")
        // The encoder's entities are removed with the rest.
        #expect(discovery.removal.map(\.topic) == messages.map(\.topic))
        #expect(discovery.removal.allSatisfy { $0.payload.isEmpty && $0.retain })
        // No discovery at all when it is off.
        var off = Self.settings
        off.discovery = .off
        #expect(HomeAssistantDiscovery(settings: off, inputs: described([Self.encoder]), softwareVersion: "t").messages.isEmpty)
    }

    @Test func aNewerValueReplacesTheOneWaitingOnItsTopicOnly() {
        var queue = OutboundQueue(limit: 10, window: 1)
        queue.appendLatest(OutboundMessage(topic: "p", text: "0", retain: true))
        queue.handedOver(mid: 1)  // in flight: never replaced
        queue.append(OutboundMessage(topic: "e", text: "a", retain: false))
        queue.appendLatest(OutboundMessage(topic: "p", text: "1", retain: true))
        queue.append(OutboundMessage(topic: "e", text: "b", retain: false))
        queue.appendLatest(OutboundMessage(topic: "q", text: "x", retain: true))  // another topic
        queue.appendLatest(OutboundMessage(topic: "p", text: "2", retain: true))
        #expect(queue.superseded == 1 && queue.dropped == 0)
        #expect(queue.waiting.suffix(queue.waitingCount).map { "\($0.topic)=\(String(decoding: $0.payload, as: UTF8.self))" } == ["e=a", "e=b", "q=x", "p=2"])
        #expect(queue.count == 5)
    }

    /// 500 detents while the broker acknowledges nothing (the sink's order: event, then position):
    /// the queue stays within its limit, holds one position (the latest), and keeps the newest events.
    @Test func aFlickOf500DetentsKeepsTheQueueBoundedWithTheLatestPosition() {
        var queue = OutboundQueue(limit: 100, window: 20)
        for detent in 0..<500 {
            queue.append(OutboundMessage(topic: "e", text: "\(detent)", retain: false))
            queue.appendLatest(OutboundMessage(topic: "p", text: "\(detent)", retain: true))
            while queue.next != nil { queue.handedOver(mid: Int32(detent)) }  // the window fills and stays full
            #expect(queue.count <= queue.limit)
        }
        let waiting = queue.waiting.suffix(queue.waitingCount)
        #expect(waiting.filter { $0.topic == "p" }.map(\.payload) == [Array("499".utf8)])
        #expect(waiting.last?.topic == "p")
        let events = waiting.filter { $0.topic == "e" }.map { Int(String(decoding: $0.payload, as: UTF8.self)) ?? -1 }
        #expect(events == Array((500 - events.count)..<500))
        #expect(events.count == queue.limit - queue.window - 1)
        #expect(queue.superseded + queue.dropped + queue.count == 1000)
    }
}
