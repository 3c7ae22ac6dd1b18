import EventOutput

/// Home Assistant's diagnostic entities: per input a `sensor` with
/// `entity_category: diagnostic` on `<prefix>/sensor/<node>/<input>_health/config` for the retained
/// JSON on `<base>/<input>/health` (`MQTTHealth.payload`): its state is the edges received since the
/// daemon started (`state_class: total_increasing`, so a restart's return to 0 is a reset), and the
/// whole object (edges, bounces absorbed, glitches rejected, noise bursts, lost events) its attributes.
/// Home Assistant shows them under the device's Diagnostic section, not on dashboards by default. They
/// follow the daemon's availability alone, so an input whose chip is away still shows what it counted.
extension HomeAssistantDiscovery {
    /// The Jinja that reads the edges from a health JSON.
    static let healthValueTemplate = "{{ value_json.edges }}"

    /// The diagnostic sensor's discovery topic of input `name`.
    func healthConfigTopic(prefix: String, input name: String) -> String {
        "\(prefix)/sensor/\(nodeID)/\(Self.topicID(name))_health/config"
    }

    func healthSensor(input name: String) -> JSONValue {
        let topic = settings.healthTopic(input: name)
        return entity([
            ("name", .string("\(name) health")),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(name))_health")),
            ("state_topic", .string(topic)),
            ("value_template", .string(Self.healthValueTemplate)),
            ("json_attributes_topic", .string(topic)),
            ("state_class", .string("total_increasing")),
            ("unit_of_measurement", .string("edges")),
            ("entity_category", .string("diagnostic")),
            ("icon", .string("mdi:pulse")),
        ], input: nil)
    }
}
