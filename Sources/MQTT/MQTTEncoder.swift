import EventOutput

/// What the MQTT sink knows of one rotary encoder: its name (a topic level), where it is (for the
/// detent's JSON), and where its position starts (published retained when the run starts).
package struct MQTTEncoder: Sendable, Hashable {
    /// The encoder's name from the configuration, used as a topic level.
    package var name: String
    /// The chip as events print it (`gpiochip0`, `simulated`).
    package var chip: String
    /// The offsets of lines A and B on the chip.
    package var lines: [Int]
    /// The run's indices of lines A and B (what a `ChipAvailability` names); empty when no line is open.
    package var lineIndices: [Int]
    /// The position the decoder starts at (`EncoderConfiguration.clamped(0)`), published retained on
    /// `<base>/<encoder>/position` at the start so Home Assistant does not show a previous run's
    /// position; `nil` publishes nothing until the first detent.
    package var startPosition: Int?
    /// Its input (`OutputSource.input` of its detents); nil: its index among the sink's encoders.
    package var input: Int?

    package init(name: String, chip: String, lines: [Int], lineIndices: [Int] = [], startPosition: Int? = 0, input: Int? = nil) {
        self.input = input
        self.name = name
        self.chip = chip
        self.lines = lines
        self.lineIndices = lineIndices
        self.startPosition = startPosition
    }

    /// The fields after a detent's standard ones in its JSON:
    /// `{"event":"rotate","direction":"cw","position":3,"velocity":12.5,"time_ns":…,"onset_ns":…,"encoder":"volume","chip":"gpiochip0","lines":[17,27]}`.
    package var eventFields: EventFields { .encoder(name, chip: chip, lines: lines) }

    /// The `event_type` of a clockwise detent in Home Assistant's `event` entity.
    package static let clockwiseEventType = "rotate_right"
    /// The `event_type` of a counter-clockwise detent.
    package static let counterClockwiseEventType = "rotate_left"
}
