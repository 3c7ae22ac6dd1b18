import DebounceCore

/// Figures for one direction of transition (presses, or releases).
package struct DirectionStatistics: Sendable, Hashable {
    /// How many transitions.
    package var transitions = 0
    /// Edges per transition: median, 90th percentile, maximum.
    package var edgesPerTransition = Percentiles()
    /// Burst length (first edge to last), in nanoseconds: median, 90th percentile, maximum.
    package var burstLengthNs = Percentiles()
    /// The shortest pulse inside any burst (time between two neighbouring edges), in nanoseconds;
    /// `nil` when every transition was one clean edge.
    package var shortestPulseNs: Int64?
    /// The longest quiet time inside any burst, in nanoseconds; `nil` when all were clean.
    package var longestInnerGapNs: Int64?
}

/// Median, 90th percentile and maximum of a list of values (nearest rank).
package struct Percentiles: Sendable, Hashable {
    package var median: Int64 = 0
    package var p90: Int64 = 0
    package var maximum: Int64 = 0

    package init() {}

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
package struct WindowAdvice: Sendable, Hashable {
    /// The strategy at its smallest working window (from which on every longer one works too).
    package var smallest: DebounceStrategy
    /// The recommendation: twice the smallest, rounded up to a 1-2-5 step, at least 1 ms.
    package var recommended: DebounceStrategy
    /// Events the recommendation gives over the whole trace (should equal the transitions).
    package var eventsWithRecommended: Int
}

/// Everything `gpio-debounce analyze` reports about a trace.
package struct TraceAnalysis: Sendable {
    package var edges = 0
    /// Transitions (bursts that changed the level).
    package var transitions: Int { press.transitions + release.transitions }
    package var press = DirectionStatistics()
    package var release = DirectionStatistics()
    /// Bursts that ended at the level they started from: spikes (EMI, or a tap too short to be a press).
    package var spikes = 0
    /// The widest pulse inside a spike, in nanoseconds.
    package var widestSpikePulseNs: Int64?
    /// The quiet gap that separated bursts, in nanoseconds.
    package var quietGapNs: Int64
    /// The shortest quiet time between two bursts, from the last edge of one to the first edge of the
    /// next, in nanoseconds. Windows must stay below it: a longer `defer` window misses the change
    /// between the two bursts, and a longer `eager` lockout reports the second one late.
    package var shortestGapBetweenBurstsNs: Int64?
    /// Whether the button was pressed during that shortest quiet time (it was a press held until the
    /// next burst), or released (a release followed by the next burst).
    package var pressedDuringShortestGap: Bool?
    /// `defer:W` advice, or `nil` with `deferProblem` saying why not.
    package var deferAdvice: WindowAdvice?
    /// `eager:L` advice (no glitch filter), or `nil` with `eagerProblem` saying why not.
    package var eagerAdvice: WindowAdvice?
    /// `eager:L,glitch:G` advice, when there are spikes to filter.
    package var eagerGlitchAdvice: WindowAdvice?
    package var deferProblem: String?
    package var eagerProblem: String?

    /// Analyses `bursts` (from a `BurstSplitter` with `quietGapNs`) of a line read with `activeLevel`.
    package init(bursts: [Burst], quietGapNs: Int64, activeLevel: ActiveLevel) {
        self.init(analysing: bursts, quietGapNs: quietGapNs, activeLevel: activeLevel)
    }

    /// Analyses the edges in `store` (the initial level's edge not among them) of a line that starts at
    /// `initialLevel`, split into bursts at quiet gaps over `quietGapNs` nanoseconds. Memory: the store,
    /// and a few bytes per transition; no burst is copied out of the store.
    package init(edges store: EdgeStore, initialLevel: Level, quietGapNs: Int64, activeLevel: ActiveLevel) {
        self.init(
            analysing: StoredBursts(store: store, initialLevel: initialLevel, quietGapNs: quietGapNs), quietGapNs: quietGapNs,
            activeLevel: activeLevel)
    }

    init(quietGapNs: Int64) {
        self.quietGapNs = quietGapNs
    }

    /// Twice `ns`, rounded up to 1, 2 or 5 times a power of ten nanoseconds, and at least 1 ms: the
    /// safety margin for switches that age and for bounce the recording did not catch.
    package static func recommendation(for ns: Int64) -> Int64 {
        let target = max(2 * ns, 1_000_000)
        var decade: Int64 = 1
        while true {
            for step: Int64 in [1, 2, 5] where step * decade >= target { return step * decade }
            decade *= 10
        }
    }
}
