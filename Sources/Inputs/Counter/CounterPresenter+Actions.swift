import DebounceCore
import EventOutput
import InputModel
import Pipeline

extension CounterPresenter {
    /// Each pulse (`pulse`; a pulse gives a rate too: `rate`), and each fall of its rate with no
    /// pulse (`rate`).
    package func actionOccasion(for output: PipelineOutput) -> ActionOccasion? {
        switch output {
        case .count(_, let pulse): ActionOccasion(on: "pulse", alsoOn: "rate", timeNs: pulse.timeNs)
        case .rate(_, let fall): ActionOccasion(on: "rate", timeNs: fall.timeNs)
        default: nil
        }
    }

    /// `GPIO_COUNTER`, `GPIO_CHIP`, `GPIO_LINE`, `GPIO_EVENT` (`pulse` or `rate`), `GPIO_TOTAL`
    /// (pulses), `GPIO_VALUE` (the total in its unit, as events show it), `GPIO_UNIT` (if it has one),
    /// `GPIO_RATE` and `GPIO_RATE_UNIT`, `GPIO_TIME_NS`, and at a pulse `GPIO_ONSET_NS` and
    /// `GPIO_INTERVAL_NS` (since the previous pulse's onset; 0 for a run's first).
    package func actionEnvironment(for output: PipelineOutput) -> [String] {
        let (total, rate, timeNs, pulse): (Int64, Double, Int64, PulseCount?)
        switch output {
        case .count(_, let count): (total, rate, timeNs, pulse) = (count.total, count.rate, count.timeNs, count)
        case .rate(_, let fall): (total, rate, timeNs, pulse) = (fall.total, fall.rate, fall.timeNs, nil)
        default: return []
        }
        var environment = [
            "GPIO_CHIP=\(chip)", "GPIO_COUNTER=\(name)", "GPIO_EVENT=\(pulse == nil ? "rate" : "pulse")", "GPIO_LINE=\(offset)",
            "GPIO_RATE=\(EventWriter.decimal(rate))", "GPIO_RATE_UNIT=\(rateUnit)", "GPIO_TIME_NS=\(timeNs)",
            "GPIO_TOTAL=\(total)", "GPIO_VALUE=\(EventWriter.value(total, perUnit: perUnit))",
        ]
        if let unit { environment.append("GPIO_UNIT=\(unit)") }
        if let pulse { environment += ["GPIO_INTERVAL_NS=\(pulse.intervalNs)", "GPIO_ONSET_NS=\(pulse.onsetNs)"] }
        return environment
    }
}
