/// One debounced pulse of a meter's output, counted (`PulseCounter`).
public struct PulseCount: Sendable, Hashable {
    /// Pulses counted so far, this one included, from the counter's starting total (the total kept
    /// across runs).
    public var total: Int64
    /// When the pulse was decided, in nanoseconds of `CLOCK_MONOTONIC`.
    public var timeNs: Int64
    /// When the pulse began, in nanoseconds: the onset of its debounced press.
    public var onsetNs: Int64
    /// The time since the previous pulse's onset, in nanoseconds; 0 for the run's first pulse.
    public var intervalNs: Int64
    /// The rate from that interval, in the counter's rate unit (`MeterRateConfiguration`: W, L/min,
    /// m³/h or pulses per minute); 0 for the run's first pulse and after an interval longer than the
    /// rate's timeout.
    public var rate: Double

    @inlinable
    public init(total: Int64, timeNs: Int64, onsetNs: Int64, intervalNs: Int64 = 0, rate: Double = 0) {
        self.total = total
        self.timeNs = timeNs
        self.onsetNs = onsetNs
        self.intervalNs = intervalNs
        self.rate = rate
    }

    /// Pulses per minute at this pulse, from the interval since the previous one (60 s over the
    /// interval); 0 for the run's first pulse.
    public var ratePerMinute: Double {
        intervalNs > 0 ? 60_000_000_000 / Double(intervalNs) : 0
    }
}
