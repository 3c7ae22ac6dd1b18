import ConfigurationFile
import DebounceCore

/// A counter's rate (power or flow), in the unit its device class implies: W for `energy`, L/min for
/// `water` and `volume`, m³/h for `gas`, pulses per minute with none. One pulse is `1 / perUnit` of the
/// counter's unit, so the rate of one pulse per second is that amount, in the rate's unit, per second:
/// a meter of 1000 imp/kWh gives 3,600,000 / (1000 × interval in s) W.
extension CounterSettings {
    /// How much of a rate's unit-quantity one of each counter unit is, by device class: Wh per energy
    /// unit (the rate in W is Wh per hour), litres per water or volume unit (L/min), m³ per gas unit
    /// (m³/h); with the rate's unit, its Home Assistant device class and seconds per rate time unit.
    static let rateUnits: [String: (unit: String, deviceClass: String, secondsPerTime: Double, amounts: [String: Double])] = [
        "energy": ("W", "power", 3600, ["Wh": 1, "kWh": 1000, "MWh": 1_000_000, "MJ": 1_000_000 / 3600, "GJ": 1_000_000_000 / 3600]),
        "water": ("L/min", "volume_flow_rate", 60, litres),
        "volume": ("L/min", "volume_flow_rate", 60, litres),
        "gas": ("m³/h", "volume_flow_rate", 3600, ["m³": 1, "ft³": 0.028316846592, "CCF": 2.8316846592]),
    ]
    /// Litres in each water or volume unit Home Assistant accepts.
    static let litres: [String: Double] = [
        "L": 1, "mL": 0.001, "gal": 3.785411784, "fl. oz.": 0.0295735295625, "m³": 1000, "ft³": 28.316846592, "CCF": 2831.6846592,
    ]

    /// The rate's unit: `W`, `L/min`, `m³/h`, or `pulses/min` (no device class, or a unit with no
    /// known size).
    package var rateUnit: String { rateScale.unit }

    /// Home Assistant's device class for the rate's sensor: `power`, `volume_flow_rate`, or `nil` for
    /// pulses per minute.
    package var rateDeviceClass: String? { rateScale.deviceClass }

    /// How the counter's pulses become its rate (`MeterRate`): its scale, `timeout` and
    /// `publish_interval`.
    package var rateConfiguration: MeterRateConfiguration {
        MeterRateConfiguration(perPulsePerSecond: rateScale.perPulsePerSecond, timeoutNs: rateTimeoutNs, reportIntervalNs: publishIntervalNs)
    }

    private var rateScale: (unit: String, deviceClass: String?, perPulsePerSecond: Double) {
        guard let deviceClass, let unit, let rate = Self.rateUnits[deviceClass], let amount = rate.amounts[unit], perUnit > 0 else {
            return ("pulses/min", nil, 60)
        }
        return (rate.unit, rate.deviceClass, amount * rate.secondsPerTime / perUnit)
    }
}
