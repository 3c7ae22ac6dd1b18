/// A multiset of whole numbers (one per transition: its edge count, its length in nanoseconds) kept
/// compactly for exact percentiles: each non-negative value as a `VariableLengthCode` (1 byte
/// up to 127, 3 bytes up to 2 ms in nanoseconds), negative ones (which a time-ordered
/// trace never gives) in a plain array. A value of a given rank is found by radix selection, 16 bits
/// a pass over the code, with no sorted copy: memory stays at the code's size.
struct CompactValues: Sendable {
    private var code: [UInt8] = []
    private var negatives: [Int64] = []
    /// How many values were added.
    private(set) var count = 0
    /// The largest value added (`nil` while empty).
    private(set) var maximum: Int64?
    /// The largest non-negative value added, as it bounds the passes a selection needs.
    private var largestNonNegative: UInt64 = 0

    mutating func append(_ value: Int64) {
        count += 1
        maximum = max(maximum ?? value, value)
        guard value >= 0 else {
            negatives.append(value)
            return
        }
        let rest = UInt64(value)
        largestNonNegative = max(largestNonNegative, rest)
        VariableLengthCode.append(rest, to: &code)
    }

    /// Calls `body` with every non-negative value, in the order added.
    private func forEachNonNegative(_ body: (UInt64) -> Void) {
        code.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count { body(VariableLengthCode.read(bytes, at: &index)) }
        }
    }

    /// The value at 0-based `rank` in ascending order (`rank` must be below `count`).
    func value(atRank rank: Int) -> Int64 {
        if rank < negatives.count { return negatives.sorted()[rank] }
        var remaining = rank - negatives.count
        // The high bits found so far, and how far down they reach.
        var prefix: UInt64 = 0
        var shift = 0
        while shift + 16 < 64, largestNonNegative >> UInt64(shift + 16) != 0 { shift += 16 }
        var determinedAbove = 64  // bits at and above this are known to equal `prefix`'s
        while true {
            var histogram = [Int](repeating: 0, count: 1 << 16)
            let known = prefix
            let above = UInt64(determinedAbove)
            forEachNonNegative { value in
                if above >= 64 || value >> above == known {
                    histogram[Int((value >> UInt64(shift)) & 0xFFFF)] += 1
                }
            }
            var digit = 0
            while remaining >= histogram[digit] {
                remaining -= histogram[digit]
                digit += 1
            }
            prefix = (above >= 64 ? 0 : prefix << 16) | UInt64(digit)
            determinedAbove = shift
            if shift == 0 { return Int64(prefix) }
            shift -= 16
        }
    }
}
