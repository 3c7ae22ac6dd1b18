/// A meter's current rate (power, flow) from the interval between its last two pulses, onset to
/// onset, as ESPHome's `pulse_meter` gives it: exact at one pulse a minute, and new at every pulse.
/// Pure: it reads no clock; its falls happen at its deadline (`nextDeadlineNs`), which the pipeline
/// waits for as for any stage's.
///
/// With no pulse, the rate falls: once the time since the latest onset exceeds the latest interval,
/// the rate is the most it can still be, one pulse over the time elapsed, reported at most once per
/// `MeterRateConfiguration.reportIntervalNs` (at the latest onset plus the interval plus 1, 2, 3...
/// report intervals); at the latest onset plus `timeoutNs` it is 0, and with the rate at 0 there is
/// no deadline at all.
public struct MeterRate: Sendable {
    public let configuration: MeterRateConfiguration
    /// The rate reported last (at a pulse or a fall), in the counter's rate unit.
    public private(set) var rate: Double = 0
    /// Pulses per minute as last reported with `rate` (60 s over the interval, or over the time since
    /// the latest onset once it fell); 0 before the first interval and after the timeout.
    public private(set) var ratePerMinute: Double = 0
    /// The onset of the latest pulse, in nanoseconds, or `nil` before the first.
    private var lastOnsetNs: Int64?
    /// When the rate next falls, in nanoseconds; `nil` while it is 0.
    public private(set) var nextDeadlineNs: Int64?

    public init(configuration: MeterRateConfiguration = MeterRateConfiguration()) {
        self.configuration = configuration
    }

    /// A pulse whose onset is `onsetNs`: the rate from the interval since the previous onset (0 for
    /// the first, or after an interval longer than the timeout), which is returned.
    public mutating func pulse(onsetNs: Int64) -> Double {
        let intervalNs = lastOnsetNs.map { onsetNs.durationNs(since: $0) } ?? 0
        lastOnsetNs = onsetNs
        rate = configuration.rate(intervalNs: intervalNs)
        ratePerMinute = intervalNs > 0 ? 60_000_000_000 / Double(intervalNs) : 0
        nextDeadlineNs = rate > 0 ? min(onsetNs.adding(durationNs: intervalNs).adding(durationNs: reportIntervalNs), timeoutAtNs(onsetNs)) : nil
        return rate
    }

    /// The fall due by `timeNs`, if any: the latest of those due (one report however late the call),
    /// decided at its deadline. `total` is the counter's, carried into the report.
    public mutating func advance(toNs timeNs: Int64, total: Int64) -> CounterReading? {
        guard let lastOnsetNs, let dueNs = nextDeadlineNs, dueNs <= timeNs else { return nil }
        let timeoutAtNs = timeoutAtNs(lastOnsetNs)
        if timeNs >= timeoutAtNs {
            rate = 0
            ratePerMinute = 0
            nextDeadlineNs = nil
            return CounterReading(rate: 0, ratePerMinute: 0, timeNs: max(timeoutAtNs, dueNs), total: total)
        }
        // The last of the falls one report interval apart from `dueNs` that is due by `timeNs`.
        let latestNs = dueNs.adding(durationNs: timeNs.durationNs(since: dueNs) / reportIntervalNs * reportIntervalNs)
        let elapsedNs = latestNs.durationNs(since: lastOnsetNs)
        rate = configuration.rate(intervalNs: elapsedNs)
        ratePerMinute = 60_000_000_000 / Double(max(1, elapsedNs))
        nextDeadlineNs = min(latestNs.adding(durationNs: reportIntervalNs), timeoutAtNs)
        return CounterReading(rate: rate, ratePerMinute: ratePerMinute, timeNs: latestNs, total: total)
    }

    /// Puts the next fall off to `timeNs` when it is due sooner: a pulse may have begun before it,
    /// still undecided (its debouncer decides at `timeNs`), and then the rate does not fall.
    public mutating func postpone(toNs timeNs: Int64) {
        guard let dueNs = nextDeadlineNs, timeNs > dueNs else { return }
        nextDeadlineNs = timeNs
    }

    /// The report interval, at least 1 ns.
    private var reportIntervalNs: Int64 { max(1, configuration.reportIntervalNs) }

    /// When the rate is 0 after a pulse at `onsetNs`: its onset plus the timeout.
    private func timeoutAtNs(_ onsetNs: Int64) -> Int64 { onsetNs.adding(durationNs: configuration.timeoutNs) }
}
