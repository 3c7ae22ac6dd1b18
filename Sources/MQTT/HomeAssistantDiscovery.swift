import Settings

/// Home Assistant's MQTT discovery messages for a run's inputs: pure, no I/O.
///
/// One device (this daemon: `identifiers`, `name`, `model`, `sw_version`) holds, per button:
/// - a device trigger per gesture it can make, on
///   `<prefix>/device_automation/<node>/<button>_<gesture>/config` (`automation_type: trigger`,
///   `type` from Home Assistant's names such as `button_short_press` or `button_double_press`,
///   `subtype` the button's name), firing when the button's event topic carries that gesture;
/// - an `event` entity on `<prefix>/event/<node>/<button>/config` whose `event_types` are the
///   button's gestures;
/// - a `binary_sensor` on `<prefix>/binary_sensor/<node>/<button>/config` for `<base>/<button>/state`;
///
/// per encoder (`HomeAssistantDiscovery+Encoders.swift`) an `event` entity and a position `sensor`;
/// per contact a `binary_sensor`, and per pulse counter a total `sensor` for the Energy dashboard
/// (`HomeAssistantDiscovery+Sensors.swift`); per matrix keypad an `event` entity
/// (`HomeAssistantDiscovery+Keypads.swift`); and per input a diagnostic `sensor` of its health
/// (`HomeAssistantDiscovery+Health.swift`).
///
/// An input's entities show as unavailable while `<base>/availability` is `offline` (the daemon is
/// stopped or gone) or `<base>/<input>/availability` is `offline` (its chip is away); Home Assistant's
/// device triggers have no availability of their own. Every message is retained, so Home Assistant finds them
/// when it starts; an empty retained message on the same topic removes one (`removal`).
package struct HomeAssistantDiscovery: Sendable {
    package let settings: MQTTSettings
    package let buttons: [MQTTButton]
    package let encoders: [MQTTEncoder]
    package let sensors: [MQTTSensor]
    package let counters: [MQTTCounter]
    package let keypads: [MQTTKeypad]
    /// The software version shown on the device (`sw_version`).
    package let softwareVersion: String

    package init(
        settings: MQTTSettings, buttons: [MQTTButton], encoders: [MQTTEncoder] = [], sensors: [MQTTSensor] = [], counters: [MQTTCounter] = [],
        keypads: [MQTTKeypad] = [], softwareVersion: String
    ) {
        self.settings = settings
        self.buttons = buttons
        self.encoders = encoders
        self.sensors = sensors
        self.counters = counters
        self.keypads = keypads
        self.softwareVersion = softwareVersion
    }

    /// The node id in topics and unique ids: the client id, with every character other than
    /// `A-Z a-z 0-9 _ -` made `_` (what Home Assistant's discovery topics allow).
    package var nodeID: String { Self.topicID(settings.clientID) }

    /// `text` with every character other than `A-Z a-z 0-9 _ -` made `_`.
    package static func topicID(_ text: String) -> String {
        String(text.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                ? Character(scalar) : "_"
        })
    }

    /// Every discovery message: topic and JSON payload, retained. Empty when discovery is off.
    package var messages: [OutboundMessage] {
        guard case .prefix(let prefix) = settings.discovery else { return [] }
        var result: [OutboundMessage] = []
        for button in buttons {
            let buttonID = Self.topicID(button.name)
            for gesture in button.gestures {
                result.append(OutboundMessage(
                    topic: "\(prefix)/device_automation/\(nodeID)/\(buttonID)_\(gesture.identifier)/config",
                    text: trigger(button, gesture).text, retain: true))
            }
            result.append(OutboundMessage(topic: "\(prefix)/event/\(nodeID)/\(buttonID)/config", text: eventEntity(button).text, retain: true))
            result.append(OutboundMessage(topic: "\(prefix)/binary_sensor/\(nodeID)/\(buttonID)/config", text: binarySensor(button).text, retain: true))
        }
        for encoder in encoders {
            let encoderID = Self.topicID(encoder.name)
            result.append(OutboundMessage(topic: "\(prefix)/event/\(nodeID)/\(encoderID)/config", text: eventEntity(encoder).text, retain: true))
            result.append(OutboundMessage(topic: "\(prefix)/sensor/\(nodeID)/\(encoderID)/config", text: positionSensor(encoder).text, retain: true))
        }
        for sensor in sensors {
            let sensorID = Self.topicID(sensor.name)
            result.append(OutboundMessage(topic: "\(prefix)/binary_sensor/\(nodeID)/\(sensorID)/config", text: binarySensor(sensor).text, retain: true))
        }
        for counter in counters {
            let counterID = Self.topicID(counter.name)
            result.append(OutboundMessage(topic: "\(prefix)/sensor/\(nodeID)/\(counterID)/config", text: totalSensor(counter).text, retain: true))
            result.append(OutboundMessage(topic: "\(prefix)/sensor/\(nodeID)/\(counterID)_rate/config", text: rateSensor(counter).text, retain: true))
        }
        for keypad in keypads {
            let keypadID = Self.topicID(keypad.name)
            result.append(OutboundMessage(topic: "\(prefix)/event/\(nodeID)/\(keypadID)/config", text: eventEntity(keypad).text, retain: true))
        }
        for name in inputNames {
            result.append(OutboundMessage(topic: healthConfigTopic(prefix: prefix, input: name), text: healthSensor(input: name).text, retain: true))
        }
        return result
    }

    /// The same topics with empty retained payloads: Home Assistant removes what they announced.
    package var removal: [OutboundMessage] {
        messages.map { OutboundMessage(topic: $0.topic, payload: [], retain: true) }
    }

    // MARK: Payloads

    /// The device every entity and trigger belongs to.
    var device: JSONValue {
        .object([
            ("identifiers", .array([.string("gpio-debounce_\(nodeID)")])),
            ("name", .string(settings.clientID)),
            ("manufacturer", .string("gpio-debounce")),
            ("model", .string("gpio-debounce buttons")),
            ("sw_version", .string(softwareVersion)),
        ])
    }

    /// Jinja that names the gesture of an event message (`MQTTGesture.identifier`): `press`,
    /// `double_click`, `click_6`...
    static let gestureTemplate =
        "{% set n = ['click', 'double_click', 'triple_click', 'quadruple_click', 'quintuple_click'] %}"
        + "{% if value_json.event != 'click' %}{{ value_json.event }}"
        + "{% elif value_json.count <= 5 %}{{ n[value_json.count - 1] }}"
        + "{% else %}click_{{ value_json.count }}{% endif %}"

    /// An entity's payload: `pairs`, then the quality of service, the availability and the device. The
    /// entity of an input (`input`, its name) is available while both the daemon's and the input's
    /// availability topics say `online` (`availability_mode: all`); one with no input (a health
    /// sensor) follows the daemon's alone.
    func entity(_ pairs: [(String, JSONValue)], input: String?) -> JSONValue {
        guard let input else {
            return .object(pairs + [("qos", .integer(settings.qos)), ("availability_topic", .string(settings.availabilityTopic)), ("device", device)])
        }
        let availability: JSONValue = .array([
            .object([("topic", .string(settings.availabilityTopic))]), .object([("topic", .string(settings.availabilityTopic(input: input)))]),
        ])
        return .object(pairs + [("qos", .integer(settings.qos)), ("availability", availability), ("availability_mode", .string("all")), ("device", device)])
    }

    func trigger(_ button: MQTTButton, _ gesture: MQTTGesture) -> JSONValue {
        .object([
            ("automation_type", .string("trigger")),
            ("topic", .string(settings.eventTopic(button: button.name))),
            ("type", .string(gesture.homeAssistantType)),
            ("subtype", .string(button.name)),
            ("payload", .string(gesture.identifier)),
            ("value_template", .string(Self.gestureTemplate)),
            ("qos", .integer(settings.qos)),
            ("device", device),
        ])
    }

    func eventEntity(_ button: MQTTButton) -> JSONValue {
        entity([
            ("name", .string(button.name)),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(button.name))_event")),
            ("state_topic", .string(settings.eventTopic(button: button.name))),
            ("event_types", .array(button.gestures.map { .string($0.identifier) })),
            ("value_template", .string("{\"event_type\": \"\(Self.gestureTemplate)\"}")),
            ("device_class", .string("button")),
        ], input: button.name)
    }

    func binarySensor(_ button: MQTTButton) -> JSONValue {
        entity([
            ("name", .string("\(button.name) pressed")),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(button.name))_state")),
            ("state_topic", .string(settings.stateTopic(button: button.name))),
            ("payload_on", .string("pressed")),
            ("payload_off", .string("released")),
        ], input: button.name)
    }
}
