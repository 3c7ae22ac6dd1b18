import EventOutput

/// What the MQTT sink knows of one contact (`sensors:` in the configuration): its name (a topic
/// level), where it is (for the event's JSON), its index among the run's lines (what
/// `PipelineOutput.contact` carries) and its Home Assistant `device_class`.
package struct MQTTSensor: Sendable, Hashable {
    /// The sensor's name from the configuration, used as a topic level.
    package var name: String
    /// The chip as events print it (`gpiochip0`, `simulated`).
    package var chip: String
    /// The line's offset on the chip.
    package var line: Int
    /// The line's index among the run's lines (`PipelineOutput.contact(line:)`).
    package var lineIndex: Int
    /// Home Assistant's binary-sensor device class (`door`, `window`, `motion`...), or `nil` for none.
    package var deviceClass: String?

    package init(name: String, chip: String, line: Int, lineIndex: Int, deviceClass: String?) {
        self.name = name
        self.chip = chip
        self.line = line
        self.lineIndex = lineIndex
        self.deviceClass = deviceClass
    }

    /// The fields after a state event's standard ones in its JSON: `,"sensor":"front_door","chip":"gpiochip0","line":23`.
    package var eventFields: EventFields { .sensor(name, chip: chip, line: line) }
}

extension MQTTSensor {
    /// The retained state of a contact that is on (a door open, motion seen).
    package static let onPayload = "on"
    /// The retained state of a contact that is off.
    package static let offPayload = "off"
}
