import DebounceCore
import EventOutput
import InputModel
import Pipeline

/// A pulse counter (`counters:`) as the outside sees it: on `state`,
/// `{"total":N,"value":V,"rate_per_min":R,"rate":P}` at the start (its kept total), at each pulse and
/// at each fall of its rate, at most one per `publish_interval` (`InputDescription.stateIntervalNs`);
/// a total sensor (`value`, the object's other fields its attributes) for Home Assistant's Energy
/// dashboard, and a rate sensor (`rate`: power, flow, or pulses per minute).
package struct CounterPresenter: InputPresenter {
    package let description: InputDescription
    /// Pulses per unit (1000 for a meter of 1000 imp/kWh): the value is the total over this.
    package let perUnit: Double
    /// The total the run starts from (kept across runs).
    package let startTotal: Int64
    /// Its run line.
    package let lineIndex: Int
    /// The rate's unit (`W`, `L/min`, `pulses/min`).
    package let rateUnit: String
    /// Its fields in its pulses' JSON: `,"counter":"energy","chip":"gpiochip0","line":24`.
    package let eventFields: EventFields
    /// Its unit (`kWh`, `m³`), nil for none.
    package let unit: String?
    /// Where its line is, for its actions' environment: its chip's name and the line's offset.
    package let chip: String
    package let offset: Int

    /// Counter `name` on `chip`'s line `line` (offset), run line `lineIndex` (`input`: its place in
    /// the run's inputs, nil its line's): `perUnit` pulses a `unit` (`kWh`, `m³`, `L`, or none), of Home Assistant's sensor
    /// `deviceClass` (`energy`, `water`, `gas`, or none), from `startTotal`, its state at most once
    /// per `publishIntervalNs`; its rate in `rateUnit` of `rateDeviceClass` (`power`,
    /// `volume_flow_rate`, or none for pulses per minute).
    package init(
        name: String, input: Int? = nil, chip: String, line: Int, lineIndex: Int, perUnit: Double, unit: String?, deviceClass: String?, startTotal: Int64,
        publishIntervalNs: Int64, rateUnit: String = EventWriter.pulsesPerMinute, rateDeviceClass: String? = nil
    ) {
        self.perUnit = perUnit
        self.startTotal = startTotal
        self.lineIndex = lineIndex
        self.rateUnit = rateUnit
        self.unit = unit
        (self.chip, self.offset) = (chip, line)
        self.eventFields = .counter(name, chip: chip, line: line)
        let what = switch rateDeviceClass {
        case "power": "power"
        case "volume_flow_rate": "flow"
        default: "rate"
        }
        let total = EntityDescription(
            key: "total", channel: "state", value: .number(stateClass: .totalIncreasing, unit: unit, field: "value", attributes: true),
            deviceClass: deviceClass, decimals: EventWriter.valueDecimals(perUnit: perUnit))
        let rate = EntityDescription(
            key: "rate", label: what, objectSuffix: "rate", channel: "state",
            value: .number(stateClass: .measurement, unit: rateUnit, field: "rate", attributes: false), deviceClass: rateDeviceClass, decimals: 3)
        self.description = InputDescription(
            name: name, kind: "counter", input: input ?? lineIndex, lines: [lineIndex], entities: [total, rate],
            stateIntervalNs: publishIntervalNs)
    }

    package var printed: PrintedFields {
        PrintedFields(lines: [(lineIndex, eventFields)])
    }

    package func start(linesPressed: [Bool?]) -> [InputUpdate] {
        [state(total: startTotal, ratePerMinute: 0, rate: 0)]
    }

    package func updates(for output: PipelineOutput) -> [InputUpdate] {
        switch output {
        case .count(_, let count): [state(total: count.total, ratePerMinute: count.ratePerMinute, rate: count.rate)]
        case .rate(_, let fall): [state(total: fall.total, ratePerMinute: fall.ratePerMinute, rate: fall.rate)]
        case .totalReset(_, let reset): [state(total: reset.total, ratePerMinute: reset.ratePerMinute, rate: reset.rate)]
        default: []
        }
    }

    /// Its state: the total in pulses, the value in its unit (`EventWriter.value(_:perUnit:)`: `total /
    /// perUnit`, as many decimals as one pulse needs), the pulses per minute and the rate in its unit
    /// from the interval between the last two pulses, or as they fell since with no pulse (0 at the
    /// start, for a run's first pulse, and after the counter's `timeout`).
    package func state(total: Int64, ratePerMinute: Double, rate: Double) -> InputUpdate {
        let text =
            "{\"total\":\(total),\"value\":\(EventWriter.value(total, perUnit: perUnit)),\"rate_per_min\":\(EventWriter.decimal(ratePerMinute)),"
            + "\"rate\":\(EventWriter.decimal(rate))}"
        let value = perUnit.isFinite && perUnit > 0 ? Double(total) / perUnit : Double(total)
        return InputUpdate(channel: "state", text: text, delivery: .latestState, numbers: ["value": value, "rate": rate])
    }
}

extension EventFields {
    /// A configured pulse counter's fields: `,"counter":"energy","chip":"gpiochip0","line":24`.
    package static func counter(_ name: String, chip: String, line: Int) -> EventFields {
        EventFields([.text("counter", name), .text("chip", chip), .integer("line", Int64(line))])
    }
}
