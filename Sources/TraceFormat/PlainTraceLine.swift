import DebounceCore

/// The line nearly every text trace is made of, `t_ns,level\n` with 1 to 15 digits of `t_ns` and nothing
/// else (no sign, space, tab or `\r`), read eight bytes at a time: what `TraceReader` tries first on
/// every line. Anything else (a comment, a header, a blank line, a sign, spaces, a CRLF end, a line
/// column, 16 digits or more, a malformed line) is left to the reader's general parser, which reads
/// the same plain line to the same edge.
enum PlainTraceLine {
    /// The fewest bytes `parse` needs from the line's start: two eight-byte loads of digits and the two
    /// bytes after the longest run of them (15 digits, `,`, the level and `\n`).
    static let minimumBytes = 18

    /// The edge of the plain line starting at `bytes`, and the line's length with its `\n`; `nil` when
    /// the line is not plain. `bytes` must hold at least `minimumBytes` readable bytes (read whatever
    /// the line's length; nothing past the line's `\n` is used).
    @inline(__always)
    static func parse(_ bytes: UnsafeRawPointer) -> (edge: Edge, length: Int)? {
        let first = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        let firstDigits = leadingDigits(first)
        guard firstDigits > 0 else { return nil }
        var timeNs: UInt64
        var digits = firstDigits
        if firstDigits < 8 {
            timeNs = value(of: first, digits: firstDigits)
        } else {
            let second = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let secondDigits = leadingDigits(second)
            guard secondDigits < 8 else { return nil }
            timeNs = value(of: first, digits: 8)
            if secondDigits > 0 { timeNs = timeNs &* powerOfTen(secondDigits) &+ value(of: second, digits: secondDigits) }
            digits += secondDigits
        }
        // `,`, `0` or `1`, `\n`.
        let comma = bytes.load(fromByteOffset: digits, as: UInt8.self)
        let level = bytes.load(fromByteOffset: digits + 1, as: UInt8.self)
        let newline = bytes.load(fromByteOffset: digits + 2, as: UInt8.self)
        guard comma == UInt8(ascii: ","), level & 0xFE == UInt8(ascii: "0"), newline == UInt8(ascii: "\n") else { return nil }
        return (Edge(level: level == UInt8(ascii: "0") ? .low : .high, timeNs: Int64(timeNs)), digits + 3)
    }

    /// How many of `word`'s bytes, from its first (lowest), are ASCII digits before the first that is not: 0 to 8.
    @inline(__always)
    static func leadingDigits(_ word: UInt64) -> Int {
        // A digit (0x30 to 0x39) neither borrows when 0x30 is taken from it nor carries when 0x46 is
        // added, and both results keep its top bit clear; any other byte sets the top bit of one of
        // them. A borrow or carry from a byte that is not a digit only reaches the bytes above it, so
        // the lowest byte with a top bit set is the first that is not a digit.
        let notDigit = ((word &- 0x3030_3030_3030_3030) | (word &+ 0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080
        return notDigit.trailingZeroBitCount >> 3
    }

    /// The number that `word`'s first `digits` bytes (1 to 8, all ASCII digits) spell, the first one the
    /// most significant.
    @inline(__always)
    static func value(of word: UInt64, digits: Int) -> UInt64 {
        // The digits' values, moved up so that the bytes below them (the most significant places of
        // eight) are zeros, then combined pairwise: 2 digits per 16 bits, 4 per 32, 8 (the classic
        // eight-digits-at-once conversion).
        var value = (word & 0x0F0F_0F0F_0F0F_0F0F) &<< UInt64(8 &* (8 &- digits))
        value = (value &* 10) &+ (value &>> 8)
        value = (((value & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064) &+ (((value &>> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001)) &>> 32
        return value & 0xFFFF_FFFF
    }

    /// 10 to the power `exponent`, 0 to 7.
    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        default: 10_000_000
        }
    }
}
