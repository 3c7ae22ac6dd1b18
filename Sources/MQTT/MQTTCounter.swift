import EventOutput

/// What the MQTT sink knows of one pulse counter (`counters:` in the configuration): its name (a
/// topic level), where it is, its index among the run's lines (what `PipelineOutput.count` carries),
/// how pulses become a value, and its Home Assistant `device_class`.
package struct MQTTCounter: Sendable, Hashable {
    /// The counter's name from the configuration, used as a topic level.
    package var name: String
    /// The chip as events print it (`gpiochip0`, `simulated`).
    package var chip: String
    /// The line's offset on the chip.
    package var line: Int
    /// The line's index among the run's lines (`PipelineOutput.count(line:)`).
    package var lineIndex: Int
    /// Pulses per unit (1000 for a meter of 1000 imp/kWh): the value is the total over this.
    package var perUnit: Double
    /// The value's unit (`kWh`, `m³`, `L`), or `nil` for none.
    package var unit: String?
    /// Home Assistant's sensor device class (`energy`, `water`, `gas`), or `nil` for none.
    package var deviceClass: String?
    /// The total the run starts from (kept across runs), published retained at the start.
    package var startTotal: Int64
    /// At most one state message per this many nanoseconds (the latest total retained).
    package var publishIntervalNs: Int64

    package init(
        name: String, chip: String, line: Int, lineIndex: Int, perUnit: Double, unit: String?, deviceClass: String?, startTotal: Int64,
        publishIntervalNs: Int64
    ) {
        self.name = name
        self.chip = chip
        self.line = line
        self.lineIndex = lineIndex
        self.perUnit = perUnit
        self.unit = unit
        self.deviceClass = deviceClass
        self.startTotal = startTotal
        self.publishIntervalNs = publishIntervalNs
    }

    /// The fields after a count event's standard ones in its JSON: `,"counter":"energy","chip":"gpiochip0","line":24`.
    package var eventFields: EventFields { .counter(name, chip: chip, line: line) }
}

extension MQTTCounter {
    /// The retained state on `<base>/<counter>/state`: `{"total":N,"value":V,"rate_per_min":R}`, the
    /// total in pulses, the value in the counter's unit (`EventWriter.value(_:perUnit:)`: `total /
    /// perUnit`, as many decimals as one pulse needs) and the pulses per minute at the latest pulse
    /// (0 at the start and for a run's first pulse). Home Assistant's sensor reads `value`
    /// (`value_json.value`) and shows the rest as attributes.
    package func statePayload(total: Int64, ratePerMinute: Double) -> [UInt8] {
        let text = "{\"total\":\(total),\"value\":\(EventWriter.value(total, perUnit: perUnit)),\"rate_per_min\":\(EventWriter.decimal(ratePerMinute))}"
        return Array(text.utf8)
    }
}
