import DebounceCore

/// The smallest debounce windows that give exactly one event per transition of a burst, found by
/// running the real `Debouncer` over it. "Smallest" means: from this window on, every longer window
/// (up to the quiet gap between bursts) works too, so the figure is safe to build on.
///
/// A burst that ends at the level it started from (an EMI spike, or a press too short to matter)
/// should give no event at all.
package enum WindowSearch {
    /// How many events `strategy` reports for `burst`, starting settled and letting time run on after it.
    package static func eventCount(_ burst: some EdgeBurst, _ strategy: DebounceStrategy, activeLevel: ActiveLevel) -> Int {
        var debouncer = Debouncer(
            configuration: DebounceConfiguration(both: strategy, activeLevel: activeLevel),
            initialLevel: burst.levelBefore, atNs: burst.startNs)
        var count = 0
        for edge in burst.edges where debouncer.receive(edge) != nil { count += 1 }
        if debouncer.finish() != nil { count += 1 }
        return count
    }

    /// Whether `strategy` handles `burst` right: one event if the level changed, none if not.
    package static func works(_ burst: some EdgeBurst, _ strategy: DebounceStrategy, activeLevel: ActiveLevel) -> Bool {
        let expected = activeLevel.isPressed(burst.levelBefore) == activeLevel.isPressed(burst.levelAfter) ? 0 : 1
        return eventCount(burst, strategy, activeLevel: activeLevel) == expected
    }

    /// The smallest `defer` window W (ns) from which on every window up to `limitNs` works, or `nil`
    /// if even `limitNs` fails. Exact: `defer`'s outcome only changes where W equals a gap between
    /// two of the burst's edges (W bridges every gap <= W), so those are the only windows tried.
    ///
    /// W can be shorter than the longest gap inside the burst: a gap at the level the burst ends at
    /// only makes `defer` report the change early, once. A second event needs the line, after holding
    /// the new level for longer than W, to go back to the old one for longer than W.
    package static func smallestDeferWindow(_ burst: some EdgeBurst, activeLevel: ActiveLevel, limitNs: Int64) -> Int64? {
        // A storm of thousands of edges: bisect instead of trying every gap.
        if burst.edgeCount > 4096 {
            return bisect(limitNs: limitNs) { works(burst, .defer(windowNs: $0), activeLevel: activeLevel) }
        }
        var gaps = Set<Int64>([0])
        var previous: Edge?
        for edge in burst.edges {
            defer { previous = edge }
            guard let previous else { continue }
            let (gap, overflow) = edge.timeNs.subtractingReportingOverflow(previous.timeNs)
            if !overflow, gap < limitNs { gaps.insert(max(0, gap)) }
        }
        // From the largest gap down: the threshold is the last candidate that still works.
        var threshold: Int64?
        for candidate in gaps.sorted(by: >) {
            guard works(burst, .defer(windowNs: candidate), activeLevel: activeLevel) else { break }
            threshold = candidate
        }
        return threshold
    }

    /// The smallest lockout L (ns) for `eager(L, glitch: glitchNs)` from which on every lockout up to
    /// `limitNs` works, or `nil` if `limitNs` fails. Bisection over nanoseconds, checked at the limit.
    package static func smallestEagerLockout(_ burst: some EdgeBurst, glitchNs: Int64, activeLevel: ActiveLevel, limitNs: Int64) -> Int64? {
        bisect(limitNs: limitNs) { works(burst, .eager(lockoutNs: $0, glitchNs: glitchNs), activeLevel: activeLevel) }
    }

    /// The smallest value in `0...limitNs` at which `ok` holds, assuming it holds from there on; `nil` if
    /// it fails at `limitNs`.
    static func bisect(limitNs: Int64, _ ok: (Int64) -> Bool) -> Int64? {
        guard ok(limitNs) else { return nil }
        if ok(0) { return 0 }
        var failing: Int64 = 0, working = limitNs
        while working - failing > 1 {
            let middle = failing + (working - failing) / 2
            if ok(middle) { working = middle } else { failing = middle }
        }
        return working
    }
}
