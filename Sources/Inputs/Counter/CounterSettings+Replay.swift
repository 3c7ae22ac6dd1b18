import ConfigurationFile
import EventOutput

extension CounterSettings {
    package static var replayHelp: String? { "a counter's pulses, counted from 0" }

    /// A trace replayed through this meter: its pulses (counted from 0), printed with its name, its
    /// total in its unit and its rate.
    package var replayTarget: ReplayTarget? {
        let fields = EventFields([.text("counter", name)])
        return ReplayTarget(counted: .pulses, fields: fields, printer: CounterPrinter(fields: fields, perUnit: perUnit, rateUnit: rateUnit))
    }
}
