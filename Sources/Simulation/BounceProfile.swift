#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How one kind of transition (the contact closing, or opening) bounces.
///
/// Burst lengths are log-normal around `medianNs`, so most are short and a few are long, as
/// measured on real switches (Ganssle, "A Guide to Debouncing": 18 switches averaged 1.6 ms of
/// bounce, worst 6.2 ms; a few switches bounce for tens of milliseconds).
package struct BurstShape: Sendable, Hashable {
    /// The chance (0...1) that the transition is one clean edge.
    package var cleanProbability: Double
    /// The median burst length, first edge to last, in nanoseconds.
    package var medianNs: Int64
    /// The spread of the log-normal burst length (its σ); 0 makes every burst `medianNs` long.
    package var spread: Double
    /// Normal bursts are cut at this length, in nanoseconds.
    package var maximumNs: Int64
    /// The chance (0...1) that a burst is a rare long one instead, of a length in `longBurstNs`.
    package var longBurstProbability: Double
    /// The range of the rare long bursts, in nanoseconds.
    package var longBurstNs: ClosedRange<Int64>
    /// Bounce pulses per millisecond of burst: a burst of length D has about `D × pulsesPerMs` pulses.
    package var pulsesPerMs: ClosedRange<Double>
    /// The shortest pulse, in nanoseconds (real pulses go well under a microsecond).
    package var shortestPulseNs: Int64

    package init(
        cleanProbability: Double, medianNs: Int64, spread: Double, maximumNs: Int64,
        longBurstProbability: Double, longBurstNs: ClosedRange<Int64>, pulsesPerMs: ClosedRange<Double>,
        shortestPulseNs: Int64
    ) {
        self.cleanProbability = cleanProbability
        self.medianNs = medianNs
        self.spread = spread
        self.maximumNs = maximumNs
        self.longBurstProbability = longBurstProbability
        self.longBurstNs = longBurstNs
        self.pulsesPerMs = pulsesPerMs
        self.shortestPulseNs = shortestPulseNs
    }

    /// Draws one burst length in nanoseconds (0 for a clean edge).
    func drawLengthNs(using random: inout some RandomNumberGenerator) -> Int64 {
        if Double.random(in: 0..<1, using: &random) < cleanProbability { return 0 }
        if Double.random(in: 0..<1, using: &random) < longBurstProbability {
            return Int64.random(in: longBurstNs, using: &random)
        }
        // Box-Muller: a standard normal from two uniforms.
        let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &random)
        let u2 = Double.random(in: 0..<1, using: &random)
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        let length = Double(medianNs) * exp(spread * normal)
        return min(maximumNs, max(shortestPulseNs, Int64(length)))
    }
}

/// How a simulated button behaves: its bounce, how people press it, and the noise around it.
public struct BounceProfile: Sendable, Hashable {
    /// The contact closing (the press).
    package var press: BurstShape
    /// The contact opening (the release): usually cleaner.
    package var release: BurstShape
    /// How long a press is held, first edge to the first edge of the release, in nanoseconds.
    package var holdNs: ClosedRange<Int64>
    /// The pause between one release and the next press, in nanoseconds.
    package var pauseNs: ClosedRange<Int64>
    /// Electrical spikes (EMI) per second of quiet line: pulses of `spikeWidthNs` that are no press.
    package var spikesPerSecond: Double
    /// The width of an EMI spike, in nanoseconds.
    package var spikeWidthNs: ClosedRange<Int64>

    package init(
        press: BurstShape, release: BurstShape, holdNs: ClosedRange<Int64>, pauseNs: ClosedRange<Int64>,
        spikesPerSecond: Double = 0, spikeWidthNs: ClosedRange<Int64> = 50...2_000
    ) {
        self.press = press
        self.release = release
        self.holdNs = holdNs
        self.pauseNs = pauseNs
        self.spikesPerSecond = spikesPerSecond
        self.spikeWidthNs = spikeWidthNs
    }

    /// A typical tactile push button pressed by a person: presses bounce about 1.5 ms on average
    /// (median 1.2 ms, cut at 6.2 ms, 1 in 100 bursts 10 to 40 ms), with pulses down to 100 ns;
    /// releases are clean half of the time and otherwise bounce about 0.2 ms.
    /// Presses last 80 to 400 ms with 0.3 to 1.5 s between them. No EMI.
    public static let typical = BounceProfile(
        press: BurstShape(
            cleanProbability: 0.05, medianNs: 1_200_000, spread: 0.65, maximumNs: 6_200_000,
            longBurstProbability: 0.01, longBurstNs: 10_000_000...40_000_000, pulsesPerMs: 5...20,
            shortestPulseNs: 100),
        release: BurstShape(
            cleanProbability: 0.5, medianNs: 200_000, spread: 0.8, maximumNs: 3_000_000,
            longBurstProbability: 0.002, longBurstNs: 5_000_000...15_000_000, pulsesPerMs: 2...10,
            shortestPulseNs: 100),
        holdNs: 80_000_000...400_000_000,
        pauseNs: 300_000_000...1_500_000_000)

    /// `typical` with a noisy environment: 2 EMI spikes per second of 50 ns to 2 µs.
    package static let noisy: BounceProfile = {
        var profile = BounceProfile.typical
        profile.spikesPerSecond = 2
        return profile
    }()
}

extension Double {
    /// The natural logarithm (`log` from the C library).
    var logarithm: Double { log(self) }
}
