import DebounceCore

/// One physical transition of a simulated button: the ground truth a debouncer should recover.
package struct PhysicalTransition: Sendable, Hashable {
    /// `true` for the contact closing (a press), `false` for it opening.
    package var pressed: Bool
    /// The first edge of the burst, in nanoseconds.
    package var firstEdgeNs: Int64
    /// The last edge of the burst, in nanoseconds: from here on the level is stable.
    package var lastEdgeNs: Int64
    /// How many edges the burst has (1 for a clean transition).
    package var edgeCount: Int
}

/// A seeded, reproducible button that a simulated person presses: an endless (or `presses`-long)
/// sequence of edges with realistic bounce and optional EMI spikes, generated one press-and-release
/// cycle at a time. The same seed, profile and gestures always give the same edges.
///
/// The person presses as `profile` says (presses and pauses of random lengths), or, given
/// `SimulatedGestures`, makes those gestures: single, double and triple clicks, holds and repeats,
/// each press still bouncing as `profile` says.
public struct BouncyButton: Sequence, IteratorProtocol, Sendable {
    /// One press and its release, with the quiet pause before it.
    public struct Cycle: Sendable {
        /// Every edge of the cycle, in time order: EMI spikes in the pause, the press burst,
        /// spikes while held, the release burst.
        public var edges: [Edge]
        package var press: PhysicalTransition
        package var release: PhysicalTransition
        /// EMI spikes in this cycle (each two edges, none of them a press).
        package var spikes: Int
    }

    package let profile: BounceProfile
    package let activeLevel: ActiveLevel
    /// The level the line has before the first edge: released.
    public var initialLevel: Level { activeLevel.level(pressed: false) }
    /// How many cycles are left; `nil` for endless. A double click is two.
    package private(set) var remainingPresses: Int?
    /// The gestures played, if any (else presses and pauses are as `profile` says).
    package var gestures: SimulatedGestures? { player?.gestures }

    private var random: SplitMix64
    private var cursorNs: Int64
    private var pending: [Edge] = []
    private var pendingIndex = 0
    private var player: GesturePlayer?

    /// A button whose first cycle starts at `startNs` (with a pause before the first press), pressed
    /// `presses` times (physical presses: a double click is two), making `gestures` if given.
    public init(
        profile: BounceProfile = .typical, seed: UInt64, activeLevel: ActiveLevel = .activeLow,
        startNs: Int64 = 0, presses: Int? = nil, gestures: SimulatedGestures? = nil
    ) {
        self.profile = profile
        self.activeLevel = activeLevel
        self.random = SplitMix64(seed: seed)
        self.cursorNs = startNs
        self.remainingPresses = presses
        self.player = gestures.map(GesturePlayer.init)
    }

    /// The next edge, or `nil` once `presses` cycles are done.
    public mutating func next() -> Edge? {
        while pendingIndex == pending.count {
            guard let cycle = nextCycle() else { return nil }
            pending = cycle.edges
            pendingIndex = 0
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// Generates the next whole cycle, or `nil` once `presses` cycles are done.
    public mutating func nextCycle() -> Cycle? {
        let pressesLeft = remainingPresses
        if let remaining = remainingPresses {
            guard remaining > 0 else { return nil }
            remainingPresses = remaining - 1
        }
        var edges: [Edge] = []
        let quietMarginNs: Int64 = 5_000_000
        let planned = player?.nextPress(pressesLeft: pressesLeft, using: &random)
        let pauseNs = planned?.pauseNs ?? Int64.random(in: profile.pauseNs, using: &random)
        var spikes = addSpikes(from: cursorNs + quietMarginNs, to: cursorNs + pauseNs - quietMarginNs, pressed: false, into: &edges)

        let press = addBurst(at: cursorNs + pauseNs, shape: profile.press, pressed: true, into: &edges)
        let holdNs = Swift.max(planned?.lengthNs ?? Int64.random(in: profile.holdNs, using: &random), press.lastEdgeNs - press.firstEdgeNs + 2 * quietMarginNs)
        let releaseStartNs = press.firstEdgeNs + holdNs
        spikes += addSpikes(from: press.lastEdgeNs + quietMarginNs, to: releaseStartNs - quietMarginNs, pressed: true, into: &edges)

        let release = addBurst(at: releaseStartNs, shape: profile.release, pressed: false, into: &edges)
        cursorNs = release.lastEdgeNs
        return Cycle(edges: edges, press: press, release: release, spikes: spikes)
    }

    /// Appends one transition's burst: the first edge at `startNs`, then pairs of bounce pulses at random
    /// times up to the burst's length, the last edge landing on the new level.
    private mutating func addBurst(at startNs: Int64, shape: BurstShape, pressed: Bool, into edges: inout [Edge]) -> PhysicalTransition {
        let target = activeLevel.level(pressed: pressed)
        edges.append(Edge(level: target, timeNs: startNs))
        let lengthNs = shape.drawLengthNs(using: &random)
        guard lengthNs > 0 else {
            return PhysicalTransition(pressed: pressed, firstEdgeNs: startNs, lastEdgeNs: startNs, edgeCount: 1)
        }
        let pulsesPerMs = Double.random(in: shape.pulsesPerMs, using: &random)
        let pairs = Swift.max(1, Int(Double(lengthNs) / 1e6 * pulsesPerMs))
        var times = (0..<(2 * pairs - 1)).map { _ in startNs + Int64.random(in: 1..<lengthNs, using: &random) }
        times.sort()
        times.append(startNs + lengthNs)
        var previousNs = startNs
        for (index, timeNs) in times.enumerated() {
            previousNs = Swift.max(timeNs, previousNs + shape.shortestPulseNs)
            edges.append(Edge(level: index % 2 == 0 ? target.toggled : target, timeNs: previousNs))
        }
        return PhysicalTransition(pressed: pressed, firstEdgeNs: startNs, lastEdgeNs: previousNs, edgeCount: times.count + 1)
    }

    /// Appends EMI spikes (a pulse away from the level and back) at random times in `[fromNs, toNs)`;
    /// returns how many.
    private mutating func addSpikes(from fromNs: Int64, to toNs: Int64, pressed: Bool, into edges: inout [Edge]) -> Int {
        guard profile.spikesPerSecond > 0, toNs > fromNs else { return 0 }
        let level = activeLevel.level(pressed: pressed)
        let meanGapNs = 1e9 / profile.spikesPerSecond
        var count = 0
        var timeNs = fromNs
        while true {
            // Exponential gaps: a Poisson process of spikes.
            timeNs += Int64(-meanGapNs * Double.random(in: Double.leastNonzeroMagnitude..<1, using: &random).logarithm)
            let widthNs = Int64.random(in: profile.spikeWidthNs, using: &random)
            guard timeNs + widthNs < toNs else { return count }
            edges.append(Edge(level: level.toggled, timeNs: timeNs))
            edges.append(Edge(level: level, timeNs: timeNs + widthNs))
            timeNs += widthNs
            count += 1
        }
    }
}
