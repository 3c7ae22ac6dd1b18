import InputModel

extension CounterPresenter {
    /// `reset` with no value starts the total again from 0.
    package var resetValue: Int64? { 0 }

    /// Its pulses, rate falls and resets, with its fields, in its units.
    package var printer: (any InputPrinter)? { CounterPrinter(fields: eventFields, perUnit: perUnit, rateUnit: rateUnit) }
}
