/// A pulse counter's total set by hand (`PulseCounter.reset(total:atNs:)`): the new total, with the
/// rate as it stands then (a reset changes no rate).
public struct TotalReset: Sendable, Hashable {
    /// The new total, in pulses.
    public var total: Int64
    /// The rate as last reported, in the counter's rate unit (W, L/min, m³/h, pulses per minute).
    public var rate: Double
    /// Pulses per minute, likewise.
    public var ratePerMinute: Double
    /// When it was set, in nanoseconds of `CLOCK_MONOTONIC` (the loop's time of the request's wakeup).
    public var timeNs: Int64

    @inlinable
    public init(total: Int64, rate: Double, ratePerMinute: Double, timeNs: Int64) {
        self.total = total
        self.rate = rate
        self.ratePerMinute = ratePerMinute
        self.timeNs = timeNs
    }
}
