/// When to try the broker again: 1 s after the first failure, doubling up to 60 s, with up to a
/// quarter of jitter (so that a fleet does not come back in step); reset by a successful connect.
/// Pure: times are nanoseconds on the caller's clock, randomness from a seed.
package struct ReconnectBackoff: Sendable {
    package static let initialNs: Int64 = 1_000_000_000
    package static let maximumNs: Int64 = 60_000_000_000

    /// Failures since the last successful connect.
    package private(set) var failures = 0
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed | 1
    }

    /// The delay before the next attempt after one more failure, in nanoseconds.
    package mutating func nextDelayNs() -> Int64 {
        let exponent = min(failures, 6)
        failures += 1
        let base = min(Self.initialNs << exponent, Self.maximumNs)
        // xorshift64: enough to spread a fleet
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        let jitter = Int64(state % UInt64(base / 4 + 1))
        return base - jitter
    }

    /// A connect succeeded: the next failure waits `initialNs` again.
    package mutating func reset() { failures = 0 }
}
