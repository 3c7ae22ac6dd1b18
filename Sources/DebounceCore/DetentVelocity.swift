/// The speed of a turn, in detents per second, from the times of its latest detents: O(1) memory,
/// no allocation.
///
/// It keeps the last `capacity` detent times of the current direction (a reversal starts afresh).
/// The speed at a detent is (k - 1) / (its time - the oldest of the k kept detents within the window),
/// where the window is `windowNs` back from the detent; with no other detent within the window, it is
/// 1 / (the time since the previous detent of either direction), and 0 for the very first detent.
struct DetentVelocity: Sendable {
    /// How many detent times are kept: at 500 detents per second, 8 span 14 ms.
    static let capacity = 8

    /// The kept times, oldest first from `oldest`, in a ring.
    private var times = InlineArray<8, Int64>(repeating: 0)
    private var oldest = 0
    private var kept = 0
    /// The time of the latest detent of either direction, if any.
    private var latestNs: Int64?
    /// The speed reported at the latest detent (repeated for a detent at the same instant).
    private var latestVelocity: Double = 0

    /// Records a detent at `timeNs` (never earlier than the previous one) and returns the speed there.
    /// `reversed` says it turned the other way than the previous detent.
    mutating func record(atNs timeNs: Int64, reversed: Bool, windowNs: Int64) -> Double {
        if reversed { kept = 0 }
        if kept == Self.capacity {
            oldest = (oldest + 1) % Self.capacity
            kept -= 1
        }
        times[(oldest + kept) % Self.capacity] = timeNs
        kept += 1
        // The oldest kept time within the window, and how many kept times are within it.
        var within = kept
        var first = times[oldest]
        for index in 0..<kept {
            first = times[(oldest + index) % Self.capacity]
            if timeNs - first <= windowNs { break }
            within -= 1
        }
        let previousNs = latestNs
        latestNs = timeNs
        let spanNs: Int64
        let detents: Int
        if within >= 2 {
            spanNs = timeNs - first
            detents = within - 1
        } else if let previousNs {
            spanNs = timeNs - previousNs
            detents = 1
        } else {
            return 0
        }
        // Detents stamped at one instant (a skipped state inferred): the speed does not jump to infinity.
        if spanNs > 0 { latestVelocity = Double(detents) * 1e9 / Double(spanNs) }
        return latestVelocity
    }
}
