/// Home Assistant's entities for a rotary encoder, on the same device as the buttons:
/// - an `event` entity on `<prefix>/event/<node>/<encoder>/config` whose `event_types` are
///   `rotate_left` and `rotate_right`, fired by each detent on `<base>/<encoder>/event`, with the
///   detent's `position` and `velocity` (detents per second) as the event's attributes;
/// - a `sensor` on `<prefix>/sensor/<node>/<encoder>/config` for the retained
///   `<base>/<encoder>/position` (`state_class: measurement`, no unit: a position counts detents).
///
/// Both show as unavailable while `<base>/availability` or `<base>/<encoder>/availability` is `offline`,
/// as the buttons' entities do.
extension HomeAssistantDiscovery {
    /// Jinja that turns a detent's JSON (`EventWriter.jsonObject(rotation:fields:)`) into what Home
    /// Assistant's `event` entity reads: `{"event_type":"rotate_right","position":3,"velocity":12.5}`
    /// (`rotate_right` for `cw`, `rotate_left` for `ccw`; the payload itself stays the same bytes as
    /// `--format json` prints).
    static let rotationTemplate =
        "{\"event_type\":\"{{ '\(MQTTEncoder.clockwiseEventType)' if value_json.direction == 'cw' else '\(MQTTEncoder.counterClockwiseEventType)' }}\","
        + "\"position\":{{ value_json.position }},\"velocity\":{{ value_json.velocity }}}"

    func eventEntity(_ encoder: MQTTEncoder) -> JSONValue {
        entity([
            ("name", .string(encoder.name)),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(encoder.name))_event")),
            ("state_topic", .string(settings.eventTopic(encoder: encoder.name))),
            ("event_types", .array([.string(MQTTEncoder.counterClockwiseEventType), .string(MQTTEncoder.clockwiseEventType)])),
            ("value_template", .string(Self.rotationTemplate)),
            ("icon", .string("mdi:knob")),
        ], input: encoder.name)
    }

    func positionSensor(_ encoder: MQTTEncoder) -> JSONValue {
        entity([
            ("name", .string("\(encoder.name) position")),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(encoder.name))_position")),
            ("state_topic", .string(settings.positionTopic(encoder: encoder.name))),
            ("state_class", .string("measurement")),
            ("icon", .string("mdi:knob")),
        ], input: encoder.name)
    }
}
