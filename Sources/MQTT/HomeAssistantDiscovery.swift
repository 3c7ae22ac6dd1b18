import EventOutput
import InputModel
import Settings

/// Home Assistant's MQTT discovery messages for a run's inputs, from their descriptions
/// (`InputDescription`): pure, no I/O, and no input kind named.
///
/// One device (this daemon: `identifiers`, `name`, `model`, `sw_version`) holds each input's entities,
/// in its description's order (`HomeAssistantDiscovery+Entities.swift`):
/// - a state that is on or off: a `binary_sensor` on `<prefix>/binary_sensor/<node>/<object>/config`;
/// - a number: a `sensor` on `<prefix>/sensor/<node>/<object>/config`;
/// - events: an `event` entity on `<prefix>/event/<node>/<object>/config`, and before it, for each
///   event type that is a device trigger (a gesture), a trigger on
///   `<prefix>/device_automation/<node>/<object>_<type>/config`;
///
/// `<object>` is the input's name (with `_<suffix>` where the entity has one: a second number of one
/// input, as a meter's rate beside its total);
/// and per input a diagnostic `sensor` of its health (`HomeAssistantDiscovery+Health.swift`).
///
/// An input's entities show as unavailable while `<base>/availability` is `offline` (the daemon is
/// stopped or gone) or `<base>/<input>/availability` is `offline` (its chip is away); Home Assistant's
/// device triggers have no availability of their own. Every message is retained, so Home Assistant finds them
/// when it starts; an empty retained message on the same topic removes one (`removal`).
package struct HomeAssistantDiscovery: Sendable {
    package let settings: MQTTSettings
    /// The inputs, in the run's order.
    package let inputs: [InputDescription]
    /// The software version shown on the device (`sw_version`).
    package let softwareVersion: String

    package init(settings: MQTTSettings, inputs: [InputDescription], softwareVersion: String) {
        self.settings = settings
        self.inputs = inputs
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
        for input in inputs {
            for entity in input.entities {
                let object = Self.topicID(input.name) + (entity.objectSuffix.map { "_" + $0 } ?? "")
                for type in triggers(entity) {
                    result.append(OutboundMessage(
                        topic: "\(prefix)/device_automation/\(nodeID)/\(object)_\(type.name)/config", text: trigger(input, entity, type).text, retain: true))
                }
                result.append(OutboundMessage(topic: "\(prefix)/\(Self.component(entity))/\(nodeID)/\(object)/config", text: payload(input, entity).text, retain: true))
            }
        }
        for input in inputs {
            result.append(OutboundMessage(topic: healthConfigTopic(prefix: prefix, input: input.name), text: healthSensor(input: input.name).text, retain: true))
        }
        return result
    }

    /// The same topics with empty retained payloads: Home Assistant removes what they announced.
    package var removal: [OutboundMessage] {
        messages.map { OutboundMessage(topic: $0.topic, payload: [], retain: true) }
    }

    /// The device every entity and trigger belongs to.
    var device: JSONValue {
        .object([
            ("identifiers", .array([.string("gpio-debounce_\(nodeID)")])),
            ("name", .string(settings.clientID)),
            ("manufacturer", .string("gpio-debounce")),
            ("model", .string("GPIO inputs")),
            ("sw_version", .string(softwareVersion)),
        ])
    }

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
}
