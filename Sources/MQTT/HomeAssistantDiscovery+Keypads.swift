/// Home Assistant's entity for a matrix keypad, on the same device as the buttons: an `event` entity
/// on `<prefix>/event/<node>/<keypad>/config` for `<base>/<keypad>/event`, whose `event_types` are
/// its published keys' characters and `code` when it collects codes (`MQTTKeypad.eventTypes`). Its
/// payloads carry `event_type` themselves, so the entity needs no template; their other fields
/// (`time_ns`, a code's `length`, and its `code` with `publish_code: true`) are the event's attributes.
///
/// It shows as unavailable while `<base>/availability` or `<base>/<keypad>/availability` is `offline`,
/// as the buttons' entities do.
extension HomeAssistantDiscovery {
    func eventEntity(_ keypad: MQTTKeypad) -> JSONValue {
        entity([
            ("name", .string(keypad.name)),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(keypad.name))_event")),
            ("state_topic", .string(settings.eventTopic(keypad: keypad.name))),
            ("event_types", .array(keypad.eventTypes.map { .string($0) })),
            ("icon", .string("mdi:dialpad")),
        ], input: keypad.name)
    }
}
