/// Which outputs of a pulse counter (`counters:`) start an action: `on: pulse` (each counted pulse) or
/// `on: rate` (each rate the counter reports: at every pulse, and when the rate falls with no pulse).
package enum CounterTrigger: String, Sendable, Hashable, CaseIterable {
    case pulse, rate

    /// Whether a pulse (`isPulse`) or a fall of the rate with no pulse starts this trigger's actions.
    package func matches(isPulse: Bool) -> Bool {
        switch self {
        case .pulse: isPulse
        case .rate: true
        }
    }
}

/// Which action a counter's pulses or rates start.
package struct CounterActionBinding: Sendable, Hashable {
    /// The counter's line index in the run (`PipelineOutput.count(line:)`, `.rate(line:)`).
    package var line: Int
    package var on: CounterTrigger
    /// Index into the runner's actions.
    package var action: Int

    package init(line: Int, on: CounterTrigger, action: Int) {
        self.line = line
        self.on = on
        self.action = action
    }
}

/// What a counter's actions need to show its total and rate in their environment: its pulses per
/// unit, its unit (`kWh`, `m³`; nil for none) and its rate's unit (`W`, `L/min`, `m³/h`, `pulses/min`).
package struct CounterUnits: Sendable, Hashable {
    package var perUnit: Double
    package var unit: String?
    package var rateUnit: String

    package init(perUnit: Double, unit: String?, rateUnit: String) {
        self.perUnit = perUnit
        self.unit = unit
        self.rateUnit = rateUnit
    }
}
