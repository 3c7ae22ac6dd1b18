import DebounceCore

/// How `TraceAnalysis` is computed: at most three passes over the bursts, each burst read where it
/// is kept (an array, or an `EdgeStore`), none collected into a list.
///
/// 1. Statistics per burst, and the smallest `defer` window per burst.
/// 2. The smallest `eager` lockout per burst (with the glitch filter the spikes of pass 1 call for),
///    and the events of the recommended `defer` window.
/// 3. The events of the recommended `eager` lockout.
extension TraceAnalysis {
    /// The smallest window of one strategy over all bursts so far, or why there is none.
    struct WindowTally {
        /// The largest of the bursts' smallest windows, in nanoseconds.
        var smallestNs: Int64 = 0
        /// Why no window works: the first burst for which none up to the limit does.
        var problem: String?

        /// Adds one burst's smallest window (`nil`: none up to `limitNs` works for the burst at `startNs`,
        /// named in the problem to three digits in the largest unit: `5.67s`, not `5669496.877us`).
        mutating func add(_ neededNs: Int64?, startNs: Int64, limitNs: Int64) {
            guard problem == nil else { return }
            guard let neededNs else {
                problem = "no window up to the \(DurationSyntax.approximate(limitNs, rounding: .exact)) quiet gap works for the burst at \(DurationSyntax.approximate(startNs))"
                return
            }
            smallestNs = max(smallestNs, neededNs)
        }
    }

    /// Pass 1's figures per direction: the edge counts and lengths of the transitions, for percentiles.
    struct DirectionValues {
        var edgeCounts = CompactValues()
        var lengths = CompactValues()
    }

    /// Analyses `bursts`, a sequence that can be read more than once, in time order.
    init<Bursts: Sequence>(analysing bursts: Bursts, quietGapNs: Int64, activeLevel: ActiveLevel)
    where Bursts.Element: EdgeBurst {
        self.init(quietGapNs: quietGapNs)
        let limitNs = quietGapNs
        var pressValues = DirectionValues(), releaseValues = DirectionValues()
        var deferTally = WindowTally()
        var previousEndNs: Int64?

        // Pass 1.
        for burst in bursts {
            edges += burst.edgeCount
            if let previousEndNs {
                let (gap, overflow) = burst.startNs.subtractingReportingOverflow(previousEndNs)
                let safeGap = overflow ? (burst.startNs > previousEndNs ? .max : .min) : gap
                // The level during the gap is the one this burst starts from.
                if shortestGapBetweenBurstsNs.map({ safeGap < $0 }) ?? true {
                    shortestGapBetweenBurstsNs = safeGap
                    pressedDuringShortestGap = activeLevel.isPressed(burst.levelBefore)
                }
            }
            previousEndNs = burst.endNs
            // The pulses: times between neighbouring edges, the widest of those away from the steady level
            // (every other one, from the first), the shortest and the longest.
            var previousNs: Int64?
            var index = 0
            var widestAway: Int64?, shortest: Int64?, longest: Int64?
            for edge in burst.edges {
                defer { previousNs = edge.timeNs }
                guard let previousNs else { continue }
                let pulse = edge.timeNs &- previousNs
                if index % 2 == 0 { widestAway = max(widestAway ?? pulse, pulse) }
                shortest = min(shortest ?? pulse, pulse)
                longest = max(longest ?? pulse, pulse)
                index += 1
            }
            let pressedBefore = activeLevel.isPressed(burst.levelBefore), pressedAfter = activeLevel.isPressed(burst.levelAfter)
            if pressedBefore == pressedAfter {
                spikes += 1
                widestSpikePulseNs = max(widestSpikePulseNs ?? 0, widestAway ?? 0)
            } else {
                func record(_ statistics: inout DirectionStatistics, _ values: inout DirectionValues) {
                    statistics.transitions += 1
                    values.edgeCounts.append(Int64(burst.edgeCount))
                    values.lengths.append(burst.lengthNs)
                    if let shortest { statistics.shortestPulseNs = min(statistics.shortestPulseNs ?? shortest, shortest) }
                    if let longest { statistics.longestInnerGapNs = max(statistics.longestInnerGapNs ?? longest, longest) }
                }
                if pressedAfter { record(&press, &pressValues) } else { record(&release, &releaseValues) }
            }
            if deferTally.problem == nil {
                deferTally.add(
                    WindowSearch.smallestDeferWindow(burst, activeLevel: activeLevel, limitNs: limitNs), startNs: burst.startNs,
                    limitNs: limitNs)
            }
        }
        press.edgesPerTransition = Percentiles(pressValues.edgeCounts)
        press.burstLengthNs = Percentiles(pressValues.lengths)
        release.edgesPerTransition = Percentiles(releaseValues.edgeCounts)
        release.burstLengthNs = Percentiles(releaseValues.lengths)

        // Pass 2.
        let glitchNs = spikes > 0 ? Self.recommendation(for: widestSpikePulseNs ?? 0) : 0
        let deferRecommended = Self.recommendation(for: deferTally.smallestNs)
        var deferEvents = 0
        var eagerTally = WindowTally()
        for burst in bursts {
            if deferTally.problem == nil {
                deferEvents += WindowSearch.eventCount(burst, .defer(windowNs: deferRecommended), activeLevel: activeLevel)
            }
            if eagerTally.problem == nil {
                eagerTally.add(
                    WindowSearch.smallestEagerLockout(burst, glitchNs: glitchNs, activeLevel: activeLevel, limitNs: limitNs),
                    startNs: burst.startNs, limitNs: limitNs)
            }
            if deferTally.problem != nil, eagerTally.problem != nil { break }
        }
        if let problem = deferTally.problem {
            deferProblem = problem
        } else {
            deferAdvice = WindowAdvice(
                smallest: .defer(windowNs: deferTally.smallestNs), recommended: .defer(windowNs: deferRecommended),
                eventsWithRecommended: deferEvents)
        }

        // Pass 3.
        let eagerRecommended = Self.recommendation(for: eagerTally.smallestNs)
        var eagerAdviceFound: WindowAdvice?
        if eagerTally.problem == nil {
            let strategy = DebounceStrategy.eager(lockoutNs: eagerRecommended, glitchNs: glitchNs)
            let events = bursts.reduce(0) { $0 + WindowSearch.eventCount($1, strategy, activeLevel: activeLevel) }
            eagerAdviceFound = WindowAdvice(
                smallest: .eager(lockoutNs: eagerTally.smallestNs, glitchNs: glitchNs), recommended: strategy,
                eventsWithRecommended: events)
        }
        if spikes > 0 {
            eagerProblem = "plain eager reports every spike: \(spikes == 1 ? "a spike would make" : "\(spikes) spikes would each make") a press and a release; use a glitch filter"
            eagerGlitchAdvice = eagerAdviceFound
        } else {
            eagerAdvice = eagerAdviceFound
            eagerProblem = eagerTally.problem
        }
    }
}
