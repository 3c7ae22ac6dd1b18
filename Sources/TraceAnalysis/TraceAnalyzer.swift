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
        var compact = CompactValues()
        for value in values { compact.append(value) }
        self.init(compact)
    }

    init(_ values: CompactValues) {
        guard let largest = values.maximum else { return }
        func rank(_ fraction: Double) -> Int64 {
            values.value(atRank: min(values.count - 1, Int((Double(values.count) * fraction).rounded(.up)) - 1))
        }
        median = rank(0.5)
        p90 = rank(0.9)
        maximum = largest
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
        self.init(analysing: bursts, quietGapNs: quietGapNs, activeLevel: activeLevel)
    }

    /// Analyses the edges in `store` (the initial level's edge not among them) of a line that starts at
    /// `initialLevel`, split into bursts at quiet gaps over `quietGapNs` nanoseconds. Memory: the store,
    /// and a few bytes per transition; no burst is copied out of the store.
    public init(edges store: EdgeStore, initialLevel: Level, quietGapNs: Int64, activeLevel: ActiveLevel) {
        self.init(
            analysing: StoredBursts(store: store, initialLevel: initialLevel, quietGapNs: quietGapNs), quietGapNs: quietGapNs,
            activeLevel: activeLevel)
    }

    init(quietGapNs: Int64) {
        self.quietGapNs = quietGapNs
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
