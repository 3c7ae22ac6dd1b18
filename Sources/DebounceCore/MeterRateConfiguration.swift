/// How a pulse counter turns the interval between its last two pulses into a rate (`MeterRate`): the
/// rate one pulse per second gives, when a rate that is not refreshed by a pulse falls to 0, and how
/// often a falling rate is reported.
public struct MeterRateConfiguration: Sendable, Hashable {
    /// The rate, in the counter's rate unit, of one pulse per second: the rate at an interval of `I`
    /// seconds is this over `I`. 3600 for watts from a meter of 1000 imp/kWh (3600 J per pulse), 60
    /// for pulses per minute (the default).
    public var perPulsePerSecond: Double
    /// After this many nanoseconds without a pulse the rate is 0 (ESPHome's `pulse_meter` `timeout`),
    /// and an interval longer than this gives 0: the meter had stopped. Default 5 min.
    public var timeoutNs: Int64
    /// While the rate falls with no pulse it is reported at most once per this many nanoseconds.
    /// Default 5 s.
    public var reportIntervalNs: Int64

    /// `timeoutNs`'s default: 5 minutes.
    public static let defaultTimeoutNs: Int64 = 300_000_000_000
    /// `reportIntervalNs`'s default: 5 s.
    public static let defaultReportIntervalNs: Int64 = 5_000_000_000

    public init(perPulsePerSecond: Double = 60, timeoutNs: Int64 = defaultTimeoutNs, reportIntervalNs: Int64 = defaultReportIntervalNs) {
        self.perPulsePerSecond = perPulsePerSecond
        self.timeoutNs = timeoutNs
        self.reportIntervalNs = reportIntervalNs
    }

    /// The rate of one pulse per `intervalNs` nanoseconds, in the counter's rate unit: 0 for no
    /// interval (a run's first pulse) and for one longer than `timeoutNs`.
    public func rate(intervalNs: Int64) -> Double {
        guard intervalNs > 0, intervalNs <= timeoutNs else { return 0 }
        return perPulsePerSecond * 1e9 / Double(intervalNs)
    }
}
