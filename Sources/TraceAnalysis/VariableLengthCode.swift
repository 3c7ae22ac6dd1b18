/// The variable-length code of whole numbers that the compact stores share (`EdgeStore`,
/// `EventStore`, `CompactValues`): LEB128, 7 bits a byte with the lowest first, the high bit set on
/// every byte but a number's last (1 byte up to 127, 3 bytes up to 2 ms in nanoseconds, 10 at most).
/// The first byte may give its lowest bits to something else (`EdgeStore` keeps an edge's level
/// there): `flagBits` of them, which `append` takes and `read` hands back.
enum VariableLengthCode {
    /// The most bytes one number takes (64 bits, 7 a byte, with one flag bit in the first).
    static let maximumBytes = 10

    /// Appends `value`'s code to `code`, with `flags` (below `1 << flagBits`) in the first byte's low
    /// `flagBits` bits (0 to 6).
    @inline(__always)
    static func append(_ value: UInt64, flags: UInt8 = 0, flagBits: Int = 0, to code: inout [UInt8]) {
        let firstBits = 7 - flagBits
        var byte = UInt8(truncatingIfNeeded: value & ((1 << UInt64(firstBits)) - 1)) << UInt8(flagBits) | flags
        var rest = value >> UInt64(firstBits)
        while rest != 0 {
            code.append(byte | 0x80)
            byte = UInt8(truncatingIfNeeded: rest & 0x7F)
            rest >>= 7
        }
        code.append(byte)
    }

    /// Reads the number whose code begins at `bytes[offset]` and moves `offset` past it; `flagBits`
    /// as it was appended, the flags in `flags`.
    @inline(__always)
    static func read<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at offset: inout Int, flagBits: Int = 0, flags: inout UInt8
    ) -> UInt64 where Bytes.Index == Int {
        var byte = bytes[offset]
        offset += 1
        flags = byte & ((1 << UInt8(flagBits)) - 1)
        var value = UInt64((byte & 0x7F) >> UInt8(flagBits))
        var shift = UInt64(7 - flagBits)
        while byte & 0x80 != 0 {
            byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            shift += 7
        }
        return value
    }

    /// Reads a number appended without flags (see `read(_:at:flagBits:flags:)`).
    @inline(__always)
    static func read<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: inout Int) -> UInt64 where Bytes.Index == Int {
        var flags: UInt8 = 0
        return read(bytes, at: &offset, flags: &flags)
    }

    /// A signed number as an unsigned one whose code is short when the number is near 0 (zigzag:
    /// 0, -1, 1, -2 … become 0, 1, 2, 3 …).
    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    /// The signed number `zigzag` made `value` of.
    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
}
