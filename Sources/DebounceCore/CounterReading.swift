/// A pulse counter's total and rate at a time between pulses: its rate fell with no pulse
/// (`MeterRate.advance(toNs:)`: the most it can still be, one pulse over the time since the latest
/// pulse's onset, or 0 once the timeout passed), or its total was set by hand
/// (`PulseCounter.reset(total:atNs:)`: the rate as it stands).
public struct CounterReading: Sendable, Hashable {
    /// The rate, in the counter's rate unit (W, L/min, m³/h, pulses per minute).
    public var rate: Double
    /// Pulses per minute, likewise: 60 s over the time since the latest onset, or 0 after the timeout.
    public var ratePerMinute: Double
    /// When it was decided or set, in nanoseconds of `CLOCK_MONOTONIC`.
    public var timeNs: Int64
    /// The counter's total, in pulses (unchanged since its latest pulse, or as set).
    public var total: Int64

    @inlinable
    public init(rate: Double, ratePerMinute: Double, timeNs: Int64, total: Int64) {
        self.rate = rate
        self.ratePerMinute = ratePerMinute
        self.timeNs = timeNs
        self.total = total
    }
}

/// `CounterReading`'s name in 0.4.1, when it was a falling rate's only.
@available(*, deprecated, renamed: "CounterReading")
public typealias RateFall = CounterReading
