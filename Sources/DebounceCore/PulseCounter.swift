/// Counts the pulses of a meter's output (an S0 electricity meter, a water or gas meter's reed
/// switch): each debounced press is one pulse. Pure: the total it starts from is given (a state file
/// keeps it across runs; see the run's state store), and every pulse reports the new total and the
/// rate from the interval since the previous pulse (`MeterRate`), whose falls with no pulse come at
/// `nextDeadlineNs` (`advance(toNs:)`).
public struct PulseCounter: Sendable {
    /// Pulses counted, from the starting total; saturates at `Int64.max`.
    public private(set) var total: Int64
    /// The onset of the latest pulse, or `nil` before the first.
    private var lastOnsetNs: Int64?
    /// The rate (power, flow) from the interval between the last two pulses.
    public private(set) var meterRate: MeterRate

    /// A counter that starts at `total` pulses, its rate as `rate` says.
    public init(total: Int64 = 0, rate: MeterRateConfiguration = MeterRateConfiguration()) {
        self.total = max(0, total)
        self.meterRate = MeterRate(configuration: rate)
    }

    /// When the rate next falls with no pulse, in nanoseconds; `nil` while it is 0.
    public var nextDeadlineNs: Int64? { meterRate.nextDeadlineNs }

    /// Applies one debounced event: a `press` is a pulse and is counted; other kinds count nothing.
    public mutating func receive(_ event: ButtonEvent) -> PulseCount? {
        guard event.kind == .press else { return nil }
        total = total == .max ? .max : total + 1
        let intervalNs = lastOnsetNs.map { event.onsetNs.durationNs(since: $0) } ?? 0
        lastOnsetNs = event.onsetNs
        let rate = meterRate.pulse(onsetNs: event.onsetNs)
        return PulseCount(total: total, timeNs: event.timeNs, onsetNs: event.onsetNs, intervalNs: intervalNs, rate: rate)
    }

    /// Sets the total to `total` pulses (at least 0) at `timeNs`, as a user asks (the control socket's
    /// `reset`: a new meter, or the meter's own reading): the rate and its deadlines go on as they were.
    public mutating func reset(total: Int64, atNs timeNs: Int64) -> CounterReading {
        self.total = max(0, total)
        return CounterReading(rate: meterRate.rate, ratePerMinute: meterRate.ratePerMinute, timeNs: timeNs, total: self.total)
    }

    /// Puts the rate's next fall off to `timeNs` (`MeterRate.postpone(toNs:)`).
    public mutating func postpone(toNs timeNs: Int64) {
        meterRate.postpone(toNs: timeNs)
    }

    /// The rate's fall due by `timeNs` (no pulse came), if any (`MeterRate.advance(toNs:total:)`).
    public mutating func advance(toNs timeNs: Int64) -> CounterReading? {
        meterRate.advance(toNs: timeNs, total: total)
    }
}
