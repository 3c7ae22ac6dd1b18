import Inputs
@testable import MQTT
import Settings
import Testing

/// A button's Home Assistant discovery, byte for byte: a device trigger per gesture, the `event`
/// entity of its gestures and the binary sensor of its state, as 0.4.1 announced them.
@Suite struct MQTTButtonDiscoveryTests {
    static let settings = MQTTSettings(host: "h", clientID: "hall-pi", base: "home/hall", hostname: "pi")
    static let gestureTemplate =
        "{% set n = ['click', 'double_click', 'triple_click', 'quadruple_click', 'quintuple_click'] %}{% if value_json.event != 'click' %}{{ value_json.event }}"
        + "{% elif value_json.count <= 5 %}{{ n[value_json.count - 1] }}{% else %}click_{{ value_json.count }}{% endif %}"
    static let device = #""device":{"identifiers":["gpio-debounce_hall-pi"],"name":"hall-pi","manufacturer":"gpio-debounce","model":"GPIO inputs","sw_version":"0.4.1"}"#
    static let availability = #""availability":[{"topic":"home/hall/availability"},{"topic":"home/hall/lights/availability"}],"availability_mode":"all","#

    @Test func aButtonsTriggersEventEntityAndStateAreWhat041Announced() {
        let lights = ButtonPresenter(name: "lights", input: 0, chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press, .hold, .click(2)])
        let messages = HomeAssistantDiscovery(settings: Self.settings, inputs: [lights.description], softwareVersion: "0.4.1").messages
        #expect(messages.map(\.topic) == [
            "homeassistant/device_automation/hall-pi/lights_press/config",
            "homeassistant/device_automation/hall-pi/lights_hold/config",
            "homeassistant/device_automation/hall-pi/lights_double_click/config",
            "homeassistant/event/hall-pi/lights/config",
            "homeassistant/binary_sensor/hall-pi/lights/config",
            "homeassistant/sensor/hall-pi/lights_health/config",
        ])
        let text = messages.map { String(decoding: $0.payload, as: UTF8.self) }
        for (index, (type, payload)) in [("button_short_press", "press"), ("button_long_press", "hold"), ("button_double_press", "double_click")].enumerated() {
            #expect(text[index] == #"{"automation_type":"trigger","topic":"home/hall/lights/event","type":""# + type + #"","subtype":"lights","payload":""#
                + payload + #"","value_template":""# + Self.gestureTemplate + #"","qos":1,"# + Self.device + "}")
        }
        #expect(text[3] == #"{"name":"lights","unique_id":"hall-pi_lights_event","state_topic":"home/hall/lights/event","#
            + #""event_types":["press","hold","double_click"],"value_template":"{\"event_type\": \""# + Self.gestureTemplate + #"\"}","#
            + #""device_class":"button","qos":1,"# + Self.availability + Self.device + "}")
        #expect(text[4] == #"{"name":"lights pressed","unique_id":"hall-pi_lights_state","state_topic":"home/hall/lights/state","#
            + #""payload_on":"pressed","payload_off":"released","qos":1,"# + Self.availability + Self.device + "}")
    }
}
