/// Home Assistant's entities for contacts and pulse counters, on the same device as the buttons:
/// - per contact (`MQTTSensor`), a `binary_sensor` on `<prefix>/binary_sensor/<node>/<sensor>/config`
///   for the retained `<base>/<sensor>/state` (`on`/`off`), with the sensor's `device_class` (`door`,
///   `window`, `motion`...) when it has one;
/// - per counter (`MQTTCounter`), a `sensor` on `<prefix>/sensor/<node>/<counter>/config` for the
///   retained JSON on `<base>/<counter>/state`: its state is `value` (the total in the counter's
///   unit), the whole object (`total` in pulses, `value`, `rate_per_min`) its attributes, and
///   `state_class: total_increasing` with the counter's `device_class` (`energy`, `water`, `gas`) and
///   `unit_of_measurement` (`kWh`, `m³`, `L`), when set, is what Home Assistant's Energy dashboard
///   takes;
/// - per counter, beside it, a `sensor` on `<prefix>/sensor/<node>/<counter>_rate/config` for the same
///   state's `rate`, the meter's power or flow (`device_class: power` in W for `energy`,
///   `volume_flow_rate` in L/min for `water` and `volume` and in m³/h for `gas`, no device class in
///   pulses/min otherwise), with `state_class: measurement`.
///
/// Both show as unavailable while `<base>/availability` or the input's `<base>/<input>/availability` is
/// `offline`, as the buttons' entities do.
extension HomeAssistantDiscovery {
    /// The Jinja that reads a counter's value from its state's JSON (`MQTTCounter.statePayload`).
    static let counterValueTemplate = "{{ value_json.value }}"
    /// The Jinja that reads a counter's rate from its state's JSON.
    static let counterRateTemplate = "{{ value_json.rate }}"

    func binarySensor(_ sensor: MQTTSensor) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("name", .string(sensor.name)),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(sensor.name))_state")),
            ("state_topic", .string(settings.stateTopic(sensor: sensor.name))),
            ("payload_on", .string(MQTTSensor.onPayload)),
            ("payload_off", .string(MQTTSensor.offPayload)),
        ]
        if let deviceClass = sensor.deviceClass { pairs.append(("device_class", .string(deviceClass))) }
        return entity(pairs, input: sensor.name)
    }

    func totalSensor(_ counter: MQTTCounter) -> JSONValue {
        let topic = settings.stateTopic(counter: counter.name)
        var pairs: [(String, JSONValue)] = [
            ("name", .string(counter.name)),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(counter.name))_total")),
            ("state_topic", .string(topic)),
            ("value_template", .string(Self.counterValueTemplate)),
            ("json_attributes_topic", .string(topic)),
            ("state_class", .string("total_increasing")),
        ]
        if let deviceClass = counter.deviceClass { pairs.append(("device_class", .string(deviceClass))) }
        if let unit = counter.unit { pairs.append(("unit_of_measurement", .string(unit))) }
        return entity(pairs, input: counter.name)
    }

    func rateSensor(_ counter: MQTTCounter) -> JSONValue {
        let what = switch counter.rateDeviceClass {
        case "power": "power"
        case "volume_flow_rate": "flow"
        default: "rate"
        }
        var pairs: [(String, JSONValue)] = [
            ("name", .string("\(counter.name) \(what)")),
            ("unique_id", .string("\(nodeID)_\(Self.topicID(counter.name))_rate")),
            ("state_topic", .string(settings.stateTopic(counter: counter.name))),
            ("value_template", .string(Self.counterRateTemplate)),
            ("state_class", .string("measurement")),
        ]
        if let deviceClass = counter.rateDeviceClass { pairs.append(("device_class", .string(deviceClass))) }
        pairs.append(("unit_of_measurement", .string(counter.rateUnit)))
        return entity(pairs, input: counter.name)
    }
}
