import DebounceCore

/// Each line's and encoder's health (`InputHealth`), read from the stages as they stand.
extension ButtonPipeline {
    /// Events `line` lost, as the loop reported them (`suspectLoss(line:count:)`).
    package func lostEvents(line: Int) -> Int { lostEventCounts[line] }

    /// The health of debounced `line` at `timeNs` (the loop's time, at or after every edge received:
    /// a burst over by then counts, see `Debouncer.statistics(asOfNs:)`); for a raw line or an
    /// encoder's, only the events it lost.
    package func health(line: Int, atNs timeNs: Int64) -> InputHealth {
        guard let debouncer = debouncer(line: line) else { return InputHealth(lostEvents: lostEventCounts[line]) }
        return InputHealth(
            debouncer.statistics(asOfNs: timeNs), suppressedChanges: contactFilter(line: line)?.suppressedChanges ?? 0,
            lostEvents: lostEventCounts[line])
    }

    /// The health of debounced `lines` as one input (a keypad's keys), their counts added up, at
    /// `timeNs` as `health(line:atNs:)`; lines beyond this pipeline's count nothing.
    package func health(lines: [Int], atNs timeNs: Int64) -> InputHealth {
        lines.reduce(into: InputHealth()) { sum, line in
            guard line < lineCount else { return }
            let one = health(line: line, atNs: timeNs)
            sum.edges += one.edges
            sum.bouncesAbsorbed += one.bouncesAbsorbed
            sum.glitchesRejected += one.glitchesRejected
            sum.noiseBursts += one.noiseBursts
            sum.lostEvents += one.lostEvents
        }
    }

    /// The health of input `input` (`OutputSource.input`, `LinePlan.input`) at `timeNs`: an encoder's
    /// is its decoder's (`health(encoder:)`), a selector's its decoder's (`health(selector:)`), any other input's its lines' added up
    /// (`health(lines:atNs:)`: a button's, a contact's or a counter's one line, a keypad's keys); an
    /// input this pipeline does not have has none.
    package func health(input: Int, atNs timeNs: Int64) -> InputHealth {
        if let encoder = encoders.firstIndex(where: { $0.source.inputIndex == input }) { return health(encoder: encoder) }
        if let selector = selectors.firstIndex(where: { $0.source.inputIndex == input }) { return health(selector: selector) }
        return health(lines: lines.indices.filter { Int(lines[$0].input) == input }, atNs: timeNs)
    }

    /// The health of encoder `index` (its two lines as one input).
    package func health(encoder index: Int) -> InputHealth {
        let encoder = encoders[index]
        return InputHealth(
            encoder.decoder.statistics, stepsPerDetent: encoder.decoder.configuration.stepsPerDetent.rawValue,
            lostEvents: lostEventCounts[encoder.lineA] + lostEventCounts[encoder.lineB])
    }
}
