import DebounceCore

/// Figures for one direction of transition (presses, or releases).
public struct DirectionStatistics: Sendable, Hashable {
    /// How many transitions.
    public var transitions = 0
    /// Edges per transition: median, 90th percentile, maximum.
    public var edgesPerTransition = Percentiles()
    /// Burst length (first edge to last), in nanoseconds: median, 90th percentile, maximum.
    public var burstLengthNs = Percentiles()
    /// The shortest pulse inside any burst (time between two neighbouring edges), in nanoseconds;
    /// `nil` when every transition was one clean edge.
    public var shortestPulseNs: Int64?
    /// The longest quiet time inside any burst, in nanoseconds; `nil` when all were clean.
    public var longestInnerGapNs: Int64?
}

/// Median, 90th percentile and maximum of a list of values (nearest rank).
public struct Percentiles: Sendable, Hashable {
    public var median: Int64 = 0
    public var p90: Int64 = 0
    public var maximum: Int64 = 0

    public init() {}

    init(_ values: [Int64]) {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return }
        func rank(_ fraction: Double) -> Int64 { sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)] }
        median = rank(0.5)
        p90 = rank(0.9)
        maximum = sorted[sorted.count - 1]
    }
}

/// A window for one strategy: the smallest that works, and the one to use.
public struct WindowAdvice: Sendable, Hashable {
    /// The strategy at its smallest working window (from which on every longer one works too).
    public var smallest: DebounceStrategy
    /// The recommendation: twice the smallest, rounded up to a 1-2-5 step, at least 1 ms.
    public var recommended: DebounceStrategy
    /// Events the recommendation gives over the whole trace (should equal the transitions).
    public var eventsWithRecommended: Int
}

/// Everything `gpio-debounce analyze` reports about a trace.
public struct TraceAnalysis: Sendable {
    public var edges = 0
    /// Transitions (bursts that changed the level).
    public var transitions: Int { press.transitions + release.transitions }
    public var press = DirectionStatistics()
    public var release = DirectionStatistics()
    /// Bursts that ended at the level they started from: spikes (EMI, or a tap too short to be a press).
    public var spikes = 0
    /// The widest pulse inside a spike, in nanoseconds.
    public var widestSpikePulseNs: Int64?
    /// The quiet gap that separated bursts, in nanoseconds.
    public var quietGapNs: Int64
    /// The shortest quiet time between two bursts, in nanoseconds (windows must stay below it).
    public var shortestGapBetweenBurstsNs: Int64?
    /// `defer:W` advice, or `nil` with `deferProblem` saying why not.
    public var deferAdvice: WindowAdvice?
    /// `eager:L` advice (no glitch filter), or `nil` with `eagerProblem` saying why not.
    public var eagerAdvice: WindowAdvice?
    /// `eager:L,glitch:G` advice, when there are spikes to filter.
    public var eagerGlitchAdvice: WindowAdvice?
    public var deferProblem: String?
    public var eagerProblem: String?

    /// Analyses `bursts` (from a `BurstSplitter` with `quietGapNs`) of a line read with `activeLevel`.
    public init(bursts: [Burst], quietGapNs: Int64, activeLevel: ActiveLevel) {
        self.quietGapNs = quietGapNs
        var pressEdges: [Int64] = [], pressLengths: [Int64] = [], releaseEdges: [Int64] = [], releaseLengths: [Int64] = []
        for (index, burst) in bursts.enumerated() {
            edges += burst.edges.count
            if index > 0 {
                let gap = burst.startNs - bursts[index - 1].endNs
                shortestGapBetweenBurstsNs = min(shortestGapBetweenBurstsNs ?? gap, gap)
            }
            let pulses = zip(burst.edges, burst.edges.dropFirst()).map { $1.timeNs - $0.timeNs }
            let pressedBefore = activeLevel.isPressed(burst.levelBefore), pressedAfter = activeLevel.isPressed(burst.levelAfter)
            if pressedBefore == pressedAfter {
                spikes += 1
                // Pulses away from the steady level: every other gap, starting with the first.
                let away = stride(from: 0, to: pulses.count, by: 2).map { pulses[$0] }
                widestSpikePulseNs = max(widestSpikePulseNs ?? 0, away.max() ?? 0)
                continue
            }
            func record(_ statistics: inout DirectionStatistics, _ edgeCounts: inout [Int64], _ lengths: inout [Int64]) {
                statistics.transitions += 1
                edgeCounts.append(Int64(burst.edges.count))
                lengths.append(burst.lengthNs)
                if let shortest = pulses.min() { statistics.shortestPulseNs = min(statistics.shortestPulseNs ?? shortest, shortest) }
                if let longest = pulses.max() { statistics.longestInnerGapNs = max(statistics.longestInnerGapNs ?? longest, longest) }
            }
            if pressedAfter { record(&press, &pressEdges, &pressLengths) } else { record(&release, &releaseEdges, &releaseLengths) }
        }
        press.edgesPerTransition = Percentiles(pressEdges)
        press.burstLengthNs = Percentiles(pressLengths)
        release.edgesPerTransition = Percentiles(releaseEdges)
        release.burstLengthNs = Percentiles(releaseLengths)

        let limitNs = quietGapNs
        func advise(_ make: (Int64) -> DebounceStrategy, _ smallestFor: (Burst) -> Int64?) -> (WindowAdvice?, String?) {
            var smallest: Int64 = 0
            for burst in bursts {
                guard let needed = smallestFor(burst) else {
                    return (nil, "no window up to the \(DurationSyntax.format(limitNs)) quiet gap works for the burst at \(DurationSyntax.format(burst.startNs))")
                }
                smallest = max(smallest, needed)
            }
            let recommended = Self.recommendation(for: smallest)
            let events = bursts.reduce(0) { $0 + WindowSearch.eventCount($1, make(recommended), activeLevel: activeLevel) }
            return (WindowAdvice(smallest: make(smallest), recommended: make(recommended), eventsWithRecommended: events), nil)
        }
        (deferAdvice, deferProblem) = advise({ .defer(windowNs: $0) }) {
            WindowSearch.smallestDeferWindow($0, activeLevel: activeLevel, limitNs: limitNs)
        }
        if spikes > 0 {
            eagerProblem = "plain eager reports every spike: \(spikes) spikes would each make a press and a release; use a glitch filter"
            let glitchNs = Self.recommendation(for: widestSpikePulseNs ?? 0)
            (eagerGlitchAdvice, _) = advise({ .eager(lockoutNs: $0, glitchNs: glitchNs) }) {
                WindowSearch.smallestEagerLockout($0, glitchNs: glitchNs, activeLevel: activeLevel, limitNs: limitNs)
            }
        } else {
            (eagerAdvice, eagerProblem) = advise({ .eager(lockoutNs: $0) }) {
                WindowSearch.smallestEagerLockout($0, glitchNs: 0, activeLevel: activeLevel, limitNs: limitNs)
            }
        }
    }

    /// Twice `ns`, rounded up to 1, 2 or 5 times a power of ten nanoseconds, and at least 1 ms: the
    /// safety margin for switches that age and for bounce the recording did not catch.
    public static func recommendation(for ns: Int64) -> Int64 {
        let target = max(2 * ns, 1_000_000)
        var decade: Int64 = 1
        while true {
            for step: Int64 in [1, 2, 5] where step * decade >= target { return step * decade }
            decade *= 10
        }
    }
}
