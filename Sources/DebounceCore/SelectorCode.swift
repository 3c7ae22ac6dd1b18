/// How a selector switch's lines make its value: which lines read active, as bits (line 0 is bit 0),
/// to a number, or to none when the lines make no valid reading.
///
/// - `oneHot`: a rotary selector with one line per position (break-before-make): exactly one line
///   active; its value is that line's number counted from 1, so the first position is 1.
/// - `binary`: a binary-coded switch or a bank of DIP switches: the bits as a number, line 0 the
///   least significant; every reading is valid.
/// - `gray`: a Gray-coded switch (one line changes between neighbouring positions): the bits read as
///   a reflected binary Gray code; every reading is valid.
/// - `bcd`: a BCD thumbwheel: each four lines one decimal digit, lines 0 to 3 the units, 4 to 7 the
///   tens; a digit above 9 is no valid reading.
public enum SelectorCode: Sendable, Equatable, CaseIterable {
    case oneHot, binary, gray, bcd

    /// The value that `activeLines` (bit i set: line i reads active) makes, or `nil` when it makes
    /// none. Only the low `lineCount` bits are read.
    public func value(ofActiveLines activeLines: UInt32, lineCount: Int) -> Int? {
        let bits = lineCount >= 32 ? activeLines : activeLines & ((1 << UInt32(lineCount)) - 1)
        switch self {
        case .oneHot:
            guard bits != 0, bits & (bits - 1) == 0 else { return nil }
            return bits.trailingZeroBitCount + 1
        case .binary:
            return Int(bits)
        case .gray:
            var binary = bits
            var shifted = bits >> 1
            while shifted != 0 {
                binary ^= shifted
                shifted >>= 1
            }
            return Int(binary)
        case .bcd:
            var value = 0
            var scale = 1
            var rest = bits
            for _ in stride(from: 0, to: lineCount, by: 4) {
                let digit = Int(rest & 0xF)
                guard digit <= 9 else { return nil }
                value += digit * scale
                scale *= 10
                rest >>= 4
            }
            return value
        }
    }

    /// The lines' bits that make `value` (the inverse of `value(ofActiveLines:lineCount:)`), or `nil`
    /// when no reading of `lineCount` lines makes it. Simulations drive a switch's lines with it.
    public func activeLines(forValue value: Int, lineCount: Int) -> UInt32? {
        guard value >= 0, lineCount > 0, lineCount <= 31 else { return nil }
        let limit = 1 << lineCount
        switch self {
        case .oneHot:
            guard value >= 1, value <= lineCount else { return nil }
            return 1 << UInt32(value - 1)
        case .binary:
            guard value < limit else { return nil }
            return UInt32(value)
        case .gray:
            guard value < limit else { return nil }
            return UInt32(value ^ (value >> 1))
        case .bcd:
            var bits: UInt32 = 0
            var rest = value
            for shift in stride(from: 0, to: lineCount, by: 4) {
                bits |= UInt32(rest % 10) << UInt32(shift)
                rest /= 10
            }
            guard rest == 0, bits < UInt32(limit) else { return nil }
            return bits
        }
    }
}
