import DebounceCore
import EventLoop
import InputModel
import Inputs
@testable import MQTT
import LineInput
import Settings
import Testing

/// Matrix keypads over MQTT without a broker: the event entity Home Assistant discovers, the event
/// types (a code's keys left out without `publish_code`), the payloads of a press and a code, and the
/// keypad's availability by its keys' lines.
@Suite struct MQTTKeypadTests {
    typealias Sensors = MQTTSensorTests
    static let settings = Sensors.settings
    static let layout: [Character] = Array("123A456B789C*0#D")
    static let pin = CodeConfiguration(minLength: 4, endKeys: ["#"], clearKeys: ["*"], allowedKeys: Array("0123456789"))

    /// A 4×4 keypad on run lines `firstLine...`, with `code` (nil: none) and `publishCode`.
    static func keypad(_ name: String = "door", input: Int = 1, firstLine: Int = 0, code: CodeConfiguration? = nil, publishCode: Bool = false) -> KeypadPresenter {
        // As `KeypadSettings.namesKey`: with a code, the keys it is made of are not named.
        KeypadPresenter(
            name: name, input: input, keys: layout, lineIndices: Array(firstLine..<(firstLine + layout.count)), collectsCodes: code != nil,
            publishesCode: publishCode, namesKey: { key in code.map { !$0.collects(key) } ?? true })
    }

    static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test func theEventTopicIsUnderTheBaseAndTheName() {
        #expect(Self.settings.topic(input: "door", channel: "event") == "home/hall/door/event")
    }

    @Test func aKeypadWithoutACodeHasEveryKeyAsAnEventType() {
        #expect(Self.keypad().eventTypes == Self.layout.map { String($0) })
        // A key printed twice is one event type.
        let twice = KeypadPresenter(name: "pad", input: 0, keys: Array("1212"), lineIndices: [0, 1, 2, 3], collectsCodes: false, publishesCode: false) { _ in true }
        #expect(twice.eventTypes == ["1", "2"])
    }

    /// With `code:` and no `publish_code`, the digits (the allowed keys) are no event type; the end and
    /// clear keys and the letters (outside `allowed_keys`) are, and so is `code`.
    @Test func aKeypadWithACodeHidesTheKeysACodeIsMadeOf() {
        #expect(Self.keypad(code: Self.pin).eventTypes == ["A", "B", "C", "*", "#", "D", "code"])
        // Every key a code may hold (no allowed_keys): only the end and clear keys.
        let anyKey = CodeConfiguration(minLength: 4, endKeys: ["#"], clearKeys: ["*"])
        #expect(Self.keypad(code: anyKey).eventTypes == ["*", "#", "code"])
        // publish_code: every key, and the code.
        #expect(Self.keypad(code: Self.pin, publishCode: true).eventTypes == Self.layout.map { String($0) } + ["code"])
    }

    @Test func aPressPayloadNamesTheKeyAndASecretKeyHasNone() {
        let plain = Self.keypad()
        #expect(Self.text(plain.pressPayload(key: 5, timeNs: 1_500)) == #"{"event_type":"5","time_ns":1500}"#)
        let secret = Self.keypad(code: Self.pin)
        #expect(secret.pressPayload(key: 5, timeNs: 1_500) == nil, "a digit of a code is not published")
        #expect(Self.text(secret.pressPayload(key: 14, timeNs: 7)) == ##"{"event_type":"#","time_ns":7}"##)
        #expect(Self.text(secret.pressPayload(key: 3, timeNs: 7)) == #"{"event_type":"A","time_ns":7}"#)
        #expect(secret.pressPayload(key: 16, timeNs: 7) == nil, "no such key")
        #expect(Self.text(Self.keypad(code: Self.pin, publishCode: true).pressPayload(key: 5, timeNs: 8)) == #"{"event_type":"5","time_ns":8}"#)
    }

    @Test func aCodesPayloadHasItsDigitsOnlyWithPublishCode() {
        let entered = EnteredCode(code: "4711", timeNs: 9_000)
        let hidden = Self.text(Self.keypad(code: Self.pin).codePayload(entered))
        #expect(hidden == #"{"event_type":"code","length":4,"time_ns":9000}"#)
        #expect(hidden?.contains("4711") == false)
        #expect(Self.text(Self.keypad(code: Self.pin, publishCode: true).codePayload(entered)) == #"{"event_type":"code","length":4,"code":"4711","time_ns":9000}"#)
        // A code's characters are escaped as JSON strings.
        let quoted = EnteredCode(code: #"1"\"#, timeNs: 1)
        #expect(Self.text(Self.keypad(code: Self.pin, publishCode: true).codePayload(quoted)) == #"{"event_type":"code","length":3,"code":"1\"\\","time_ns":1}"#)
    }

    /// One `event` entity per keypad after the other inputs' entities, then its health sensor; the
    /// removal covers both.
    @Test func discoveryAnnouncesAnEventEntityPerKeypad() {
        let button = ButtonPresenter(name: "lights", chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press])
        let door = Self.keypad(firstLine: 1, code: Self.pin)
        let gate = Self.keypad("back gate", input: 2, firstLine: 17)
        let discovery = HomeAssistantDiscovery(settings: Self.settings, inputs: described([button, door, gate]), softwareVersion: "0.4.0")
        let messages = discovery.messages
        #expect(messages.map(\.topic) == [
            "homeassistant/device_automation/hall-pi/lights_press/config",
            "homeassistant/event/hall-pi/lights/config",
            "homeassistant/binary_sensor/hall-pi/lights/config",
            "homeassistant/event/hall-pi/door/config",
            "homeassistant/event/hall-pi/back_gate/config",
            "homeassistant/sensor/hall-pi/lights_health/config",
            "homeassistant/sensor/hall-pi/door_health/config",
            "homeassistant/sensor/hall-pi/back_gate_health/config",
        ])
        #expect(messages.allSatisfy { $0.retain })
        let text = messages.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(text[3] == #"{"name":"door","unique_id":"hall-pi_door_event","state_topic":"home/hall/door/event","#
            + ##""event_types":["A","B","C","*","#","D","code"],"icon":"mdi:dialpad","## + Sensors.tail("door"))
        #expect(text[4] == #"{"name":"back gate","unique_id":"hall-pi_back_gate_event","state_topic":"home/hall/back gate/event","#
            + ##""event_types":["1","2","3","A","4","5","6","B","7","8","9","C","*","0","#","D"],"icon":"mdi:dialpad","## + Sensors.tail("back gate"))
        #expect(discovery.removal.map(\.topic) == messages.map(\.topic))
        #expect(discovery.removal.allSatisfy { $0.payload.isEmpty && $0.retain })
    }

    /// A keypad's keys have no chip of their own: a chip change naming any of its keys' lines (its rows'
    /// and columns' chip, as its source reports it) makes the keypad away, and back.
    @Test func aKeypadIsAwayWhileTheChipOfItsKeysIs() {
        let button = ButtonPresenter(name: "lights", chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press])
        var availability = MQTTInputAvailability(described([button, Self.keypad(firstLine: 1)]))
        #expect(availability.inputs.map(\.name) == ["lights", "door"])
        #expect(availability.inputs[1].lines == Array(1...16))
        let away = availability.note(ChipAvailability(chip: "gpiochip1", lines: Array(1...16), isAvailable: false))
        #expect(away.map(\.name) == ["door"] && away.allSatisfy { !$0.isAvailable })
        #expect(availability.isAvailable(0))
        let back = availability.note(ChipAvailability(chip: "gpiochip1", lines: Array(1...16), isAvailable: true))
        #expect(back.map(\.name) == ["door"] && back.allSatisfy(\.isAvailable))
    }
}
