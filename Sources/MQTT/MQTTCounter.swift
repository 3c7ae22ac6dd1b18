import DebounceCore
import EventOutput

/// What the MQTT sink knows of one pulse counter (`counters:` in the configuration): its name (a
/// topic level), where it is, its index among the run's lines (what `PipelineOutput.count` carries),
/// how pulses become a value, its Home Assistant `device_class`, and its rate's unit and device class.
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
    /// The rate's unit (`W`, `L/min`, `m³/h`, `pulses/min`).
    package var rateUnit: String
    /// Home Assistant's device class of the rate's sensor (`power`, `volume_flow_rate`), or `nil` for
    /// none (pulses per minute).
    package var rateDeviceClass: String?

    package init(
        name: String, chip: String, line: Int, lineIndex: Int, perUnit: Double, unit: String?, deviceClass: String?, startTotal: Int64,
        publishIntervalNs: Int64, rateUnit: String = EventWriter.pulsesPerMinute, rateDeviceClass: String? = nil
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
        self.rateUnit = rateUnit
        self.rateDeviceClass = rateDeviceClass
    }

    /// The fields after a count event's standard ones in its JSON: `,"counter":"energy","chip":"gpiochip0","line":24`.
    package var eventFields: EventFields { .counter(name, chip: chip, line: line) }
}

extension MQTTCounter {
    /// What a counter's state message says: its total in pulses, and its rate in pulses per minute and
    /// in its rate unit, at its latest pulse or as it fell since (`RateFall`).
    package struct State: Sendable, Hashable {
        package var total: Int64
        package var ratePerMinute: Double
        package var rate: Double

        package init(total: Int64, ratePerMinute: Double = 0, rate: Double = 0) {
            self.total = total
            self.ratePerMinute = ratePerMinute
            self.rate = rate
        }

        /// The state at a pulse.
        package init(_ count: PulseCount) {
            self.init(total: count.total, ratePerMinute: count.ratePerMinute, rate: count.rate)
        }

        /// The state once the rate fell with no pulse.
        package init(_ fall: RateFall) {
            self.init(total: fall.total, ratePerMinute: fall.ratePerMinute, rate: fall.rate)
        }
    }

    /// The retained state on `<base>/<counter>/state`: `{"total":N,"value":V,"rate_per_min":R,"rate":P}`,
    /// the total in pulses, the value in the counter's unit (`EventWriter.value(_:perUnit:)`: `total /
    /// perUnit`, as many decimals as one pulse needs), the pulses per minute and the rate in `rateUnit`
    /// from the interval between the last two pulses, or as they fell since with no pulse (0 at the
    /// start, for a run's first pulse, and after the counter's `timeout`). Home Assistant's total
    /// sensor reads `value` (`value_json.value`) and shows the rest as attributes; its rate sensor
    /// reads `rate`.
    package func statePayload(_ state: State) -> [UInt8] {
        let text =
            "{\"total\":\(state.total),\"value\":\(EventWriter.value(state.total, perUnit: perUnit)),\"rate_per_min\":\(EventWriter.decimal(state.ratePerMinute)),"
            + "\"rate\":\(EventWriter.decimal(state.rate))}"
        return Array(text.utf8)
    }
}
