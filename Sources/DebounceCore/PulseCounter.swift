/// Counts the pulses of a meter's output (an S0 electricity meter, a water or gas meter's reed
/// contact): each debounced press is one pulse. Pure: the total it starts from is given (a state file
/// keeps it across runs; see the run's counter store), and every pulse reports the new total.
public struct PulseCounter: Sendable {
    /// Pulses counted, from the starting total; saturates at `Int64.max`.
    public private(set) var total: Int64
    /// The onset of the latest pulse, or `nil` before the first.
    private var lastOnsetNs: Int64?

    /// A counter that starts at `total` pulses.
    public init(total: Int64 = 0) {
        self.total = max(0, total)
    }

    /// Applies one debounced event: a `press` is a pulse and is counted; other kinds count nothing.
    public mutating func receive(_ event: ButtonEvent) -> PulseCount? {
        guard event.kind == .press else { return nil }
        total = total == .max ? .max : total + 1
        let intervalNs = lastOnsetNs.map { event.onsetNs.durationNs(since: $0) } ?? 0
        lastOnsetNs = event.onsetNs
        return PulseCount(total: total, timeNs: event.timeNs, onsetNs: event.onsetNs, intervalNs: intervalNs)
    }
}
