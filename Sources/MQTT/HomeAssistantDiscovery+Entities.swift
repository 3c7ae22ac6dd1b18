import EventOutput
import InputModel

/// Each entity of an input's description as Home Assistant's MQTT discovery announces it, on the
/// input's channel topic (`<base>/<input>/<channel>`):
/// - on or off: a `binary_sensor` with `payload_on` and `payload_off` (`pressed`/`released`, `on`/`off`);
/// - a number: a `sensor`, reading the channel's payload or one field of its JSON (`value_template`),
///   the object's other fields as attributes where the description says so, with its `state_class`,
///   `device_class` and `unit_of_measurement` (a meter's total: `total_increasing`, `energy`,
///   `kWh`, what the Energy dashboard takes);
/// - one of a few words: a `sensor` of `device_class: enum` with those words as its `options`;
/// - events: an `event` entity whose `event_types` are the description's, read through its template
///   where the payload does not name its `event_type` itself; each type that is a device trigger
///   also a `device_automation` trigger, its `subtype` the input's name.
extension HomeAssistantDiscovery {
    /// The discovery component of `entity`: `binary_sensor`, `sensor` or `event`.
    static func component(_ entity: EntityDescription) -> String {
        switch entity.value {
        case .binary: "binary_sensor"
        case .number, .choice: "sensor"
        case .events: "event"
        }
    }

    /// The event types of `entity` that are device triggers.
    func triggers(_ entity: EntityDescription) -> [EventType] {
        guard case .events(let types, _, _) = entity.value else { return [] }
        return types.filter { $0.trigger != nil }
    }

    /// The payload of `entity` of `input`.
    func payload(_ input: InputDescription, _ entity: EntityDescription) -> JSONValue {
        let topic = settings.topic(input: input.name, channel: entity.channel)
        var pairs: [(String, JSONValue)] = [
            ("name", .string(entity.label.map { "\(input.name) \($0)" } ?? input.name)),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(input.name))_\(entity.key)")),
            ("state_topic", .string(topic)),
        ]
        switch entity.value {
        case .binary(let on, let off):
            pairs += [("payload_on", .string(on)), ("payload_off", .string(off))]
            if let deviceClass = entity.deviceClass { pairs.append(("device_class", .string(deviceClass))) }
        case .number(let stateClass, let unit, let field, let attributes):
            if let field { pairs.append(("value_template", .string("{{ value_json.\(field) }}"))) }
            if attributes { pairs.append(("json_attributes_topic", .string(topic))) }
            pairs.append(("state_class", .string(stateClass.rawValue)))
            if let deviceClass = entity.deviceClass { pairs.append(("device_class", .string(deviceClass))) }
            if let unit { pairs.append(("unit_of_measurement", .string(unit))) }
        case .choice(let options):
            pairs += [("device_class", .string("enum")), ("options", .array(options.map { .string($0) }))]
        case .events(let types, let template, _):
            pairs.append(("event_types", .array(types.map { .string($0.name) })))
            if let template { pairs.append(("value_template", .string(template))) }
            if let deviceClass = entity.deviceClass { pairs.append(("device_class", .string(deviceClass))) }
        }
        if let icon = entity.icon { pairs.append(("icon", .string(icon))) }
        return self.entity(pairs, input: input.name)
    }

    /// The device trigger of event type `type` of `entity`: it fires when the entity's channel
    /// carries an event of that type.
    func trigger(_ input: InputDescription, _ entity: EntityDescription, _ type: EventType) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("automation_type", .string("trigger")),
            ("topic", .string(settings.topic(input: input.name, channel: entity.channel))),
            ("type", .string(type.trigger ?? type.name)),
            ("subtype", .string(input.name)),
            ("payload", .string(type.name)),
        ]
        if case .events(_, _, let typeTemplate?) = entity.value { pairs.append(("value_template", .string(typeTemplate))) }
        return .object(pairs + [("qos", .integer(settings.qos)), ("device", device)])
    }
}
