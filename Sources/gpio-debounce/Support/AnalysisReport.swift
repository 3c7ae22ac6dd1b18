import DebounceCore
import EventOutput
import TraceAnalysis

/// `analyze`'s output, as text for people and as one JSON object for programs. The text shows every
/// duration as `DurationSyntax.approximate` does (three significant digits); the JSON gives exact
/// nanoseconds and exact strategies.
enum AnalysisReport {
    static func text(_ analysis: TraceAnalysis, source: String) -> String {
        var lines: [String] = []
        lines.append("\(TerminalText.escaped(source)): \(counted(analysis.edges, "edge")), \(counted(analysis.transitions, "transition")) (\(counted(analysis.press.transitions, "press", "presses")), \(counted(analysis.release.transitions, "release"))), \(counted(analysis.spikes, "spike")); transitions split at quiet gaps over \(DurationSyntax.approximate(analysis.quietGapNs, rounding: .exact)).")
        lines.append("")
        lines.append("           transitions   edges per transition     burst length                    shortest   longest gap")
        lines.append("                         median   p90    max     median     p90        max        pulse      inside a burst")
        for (name, statistics) in [("press", analysis.press), ("release", analysis.release)] {
            lines.append(
                name.padding(11) + String(statistics.transitions).padding(14)
                    + String(statistics.edgesPerTransition.median).padding(9) + String(statistics.edgesPerTransition.p90).padding(7)
                    + String(statistics.edgesPerTransition.maximum).padding(8)
                    + DurationSyntax.approximate(statistics.burstLengthNs.median).padding(11) + DurationSyntax.approximate(statistics.burstLengthNs.p90).padding(11)
                    + DurationSyntax.approximate(statistics.burstLengthNs.maximum).padding(11)
                    + (statistics.shortestPulseNs.map(DurationSyntax.approximate) ?? "-").padding(11) + (statistics.longestInnerGapNs.map(DurationSyntax.approximate) ?? "-"))
        }
        if analysis.spikes > 0 {
            lines.append("spikes     \(analysis.spikes), the widest pulse \(DurationSyntax.approximate(analysis.widestSpikePulseNs ?? 0)) (a burst that ends where it began)")
        }
        lines.append("")
        lines.append("Smallest window that gives exactly one event per transition (as does every longer one, up to the gap):")
        func row(_ name: String, _ advice: WindowAdvice?, _ problem: String?) {
            if let advice {
                lines.append("  \(name.padding(19))\(shown(advice.smallest, limitNs: analysis.quietGapNs).padding(30))recommended: \(shown(advice.recommended, limitNs: analysis.quietGapNs)) (\(counted(advice.eventsWithRecommended, "event")) for \(counted(analysis.transitions, "transition")))")
            } else if let problem {
                lines.append("  \(name.padding(19))\(problem)")
            }
        }
        row("defer:W", analysis.deferAdvice, analysis.deferProblem)
        row("eager:L", analysis.eagerAdvice, analysis.eagerProblem)
        row("eager:L,glitch:G", analysis.eagerGlitchAdvice, nil)
        if case .defer(let windowNs)? = analysis.deferAdvice?.smallest,
            let longestGapNs = [analysis.press.longestInnerGapNs, analysis.release.longestInnerGapNs].compactMap({ $0 }).max(),
            windowNs < longestGapNs
        {
            lines.append("defer:W can be below the \(DurationSyntax.approximate(longestGapNs)) longest gap: a gap at the level the burst ends at only makes defer report early; it adds an event only if the line holds the new level, then the old one, each for longer than W.")
        }
        lines.append("Recommended = twice the smallest, rounded up to a 1-2-5 step, at least 1 ms: margin for switches that age and bounce the recording missed.")
        if let gap = analysis.shortestGapBetweenBurstsNs {
            // Rounded down: a window under the figure shown is under the gap.
            let held = analysis.pressedDuringShortestGap == true ? "pressed" : "released"
            lines.append("Keep windows under \(DurationSyntax.approximate(gap, rounding: .down)): the shortest quiet time in this trace from the last edge of one burst to the first edge of the next (while the button was \(held)).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `strategy` with its durations as `approximate` shows them, the window rounded up: a smallest
    /// window that works still works rounded up (every longer one does, up to `limitNs`, the quiet gap).
    /// Exact where rounding up would pass `limitNs`; the glitch filter exact (no other was tried).
    static func shown(_ strategy: DebounceStrategy, limitNs: Int64) -> String {
        func window(_ ns: Int64) -> String {
            DurationSyntax.approximate(ns, rounding: DurationSyntax.rounded(ns, .up) <= limitNs ? .up : .exact)
        }
        switch strategy {
        case .defer(let windowNs): return "defer:\(window(windowNs))"
        case .eager(let lockoutNs, 0): return "eager:\(window(lockoutNs))"
        case .eager(let lockoutNs, let glitchNs): return "eager:\(window(lockoutNs)),glitch:\(DurationSyntax.approximate(glitchNs, rounding: .exact))"
        }
    }

    static func json(_ analysis: TraceAnalysis, source: String) -> String {
        func percentiles(_ p: Percentiles) -> String { "{\"median\":\(p.median),\"p90\":\(p.p90),\"max\":\(p.maximum)}" }
        func direction(_ d: DirectionStatistics) -> String {
            "{\"transitions\":\(d.transitions),\"edges_per_transition\":\(percentiles(d.edgesPerTransition)),\"burst_length_ns\":\(percentiles(d.burstLengthNs)),\"shortest_pulse_ns\":\(d.shortestPulseNs.map(String.init) ?? "null"),\"longest_inner_gap_ns\":\(d.longestInnerGapNs.map(String.init) ?? "null")}"
        }
        func advice(_ a: WindowAdvice?, _ problem: String?) -> String {
            guard let a else { return problem.map { "{\"problem\":\(JSONText.quoted($0))}" } ?? "null" }
            return "{\"smallest\":\(JSONText.quoted(a.smallest.description)),\"recommended\":\(JSONText.quoted(a.recommended.description)),\"events_with_recommended\":\(a.eventsWithRecommended)}"
        }
        return "{\"source\":\(JSONText.quoted(source)),\"edges\":\(analysis.edges),\"transitions\":\(analysis.transitions),\"spikes\":\(analysis.spikes),\"widest_spike_pulse_ns\":\(analysis.widestSpikePulseNs.map(String.init) ?? "null"),\"quiet_gap_ns\":\(analysis.quietGapNs),\"shortest_gap_between_transitions_ns\":\(analysis.shortestGapBetweenBurstsNs.map(String.init) ?? "null"),\"press\":\(direction(analysis.press)),\"release\":\(direction(analysis.release)),\"windows\":{\"defer\":\(advice(analysis.deferAdvice, analysis.deferProblem)),\"eager\":\(advice(analysis.eagerAdvice, analysis.eagerProblem)),\"eager_glitch\":\(advice(analysis.eagerGlitchAdvice, nil))}}\n"
    }
}

extension String {
    /// Pads with spaces on the right to `width`, keeping at least one space after the text.
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
