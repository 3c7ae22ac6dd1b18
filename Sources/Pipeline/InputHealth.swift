import DebounceCore

/// How one input's lines have been doing: what the debouncer took in and what it kept out, and what
/// the kernel lost. Counts since the run started; plain integers (O(1) memory). An encoder's two lines
/// make one input.
package struct InputHealth: Sendable, Hashable {
    /// Edges received (an encoder: changes of its two lines).
    package var edges = 0
    /// Edges absorbed as bounce of a press or release that was reported (an encoder: changes that
    /// moved no detent, such as bounce and jiggle).
    package var bouncesAbsorbed = 0
    /// Pulses too short to become a press or a change: bursts of one or two edges that reported
    /// nothing, and for an input with a delay the changes that turned back before it. 0 for an
    /// encoder.
    package var glitchesRejected = 0
    /// Bursts of three or more edges that reported no press or release (noise on the line). 0 for an
    /// encoder.
    package var noiseBursts = 0
    /// Events the kernel lost: its count where it gives one (libgpiod 2's sequence numbers, the
    /// simulated line), else one per piece of evidence (a full queue, two edges of one direction in a
    /// row); for an encoder, also the skipped states whose direction could not be read.
    package var lostEvents = 0
    /// Whether glitches and noise bursts are counted: the input's lines are debounced. False for an
    /// encoder, whose decoder takes its raw lines (its health says neither).
    package var countsGlitches = true
    /// Readings of its lines that meant nothing and held (a switch of several positions resting
    /// between two for longer than its settle time, or reading two at once); nil for an input whose
    /// lines make no reading together.
    package var invalidReadings: Int?

    package init(
        edges: Int = 0, bouncesAbsorbed: Int = 0, glitchesRejected: Int = 0, noiseBursts: Int = 0, lostEvents: Int = 0, countsGlitches: Bool = true
    ) {
        self.edges = edges
        self.bouncesAbsorbed = bouncesAbsorbed
        self.glitchesRejected = glitchesRejected
        self.noiseBursts = noiseBursts
        self.lostEvents = lostEvents
        self.countsGlitches = countsGlitches
    }

    /// The health of a debounced line from its debouncer's statistics, the changes its delay filter
    /// suppressed (0 for none) and the events it lost.
    package init(_ statistics: DebounceStatistics, suppressedChanges: Int = 0, lostEvents: Int) {
        self.init(
            edges: statistics.edges, bouncesAbsorbed: statistics.bouncesAbsorbed, glitchesRejected: statistics.glitchesRejected + suppressedChanges,
            noiseBursts: statistics.noiseBursts, lostEvents: lostEvents)
    }

    /// The health of an encoder from its decoder's statistics and configuration, and the events its two
    /// lines lost: every change that did not make one of the reported detents' transitions is bounce
    /// (duplicates excepted: those are lost edges).
    package init(_ statistics: EncoderStatistics, stepsPerDetent: Int, lostEvents: Int) {
        let detentTransitions = stepsPerDetent * statistics.detents
        self.init(
            edges: statistics.changes, bouncesAbsorbed: max(0, statistics.changes - statistics.duplicateChanges - detentTransitions),
            lostEvents: lostEvents + statistics.lostSkips, countsGlitches: false)
    }
}
