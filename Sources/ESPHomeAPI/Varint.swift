/// The base-128 varints of the plaintext frame's header, as protocol buffers write them: 7 bits a
/// byte, the least significant first, the high bit set on every byte but the last.
enum Varint {
    /// Appends `value` to `bytes`, in as few bytes as it takes (1 to 5).
    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads the varint at `cursor` in `bytes` and moves `cursor` past it; `nil` (the cursor where it
    /// was) if the bytes end first. Throws if it goes on past `maximumBytes` bytes (at most 4: the value
    /// then fits 28 bits).
    static func read(_ bytes: [UInt8], at cursor: inout Int, maximumBytes: Int) throws(APIFrameError) -> UInt32? {
        var value: UInt32 = 0
        var index = cursor
        for shift in stride(from: 0, to: 7 * maximumBytes, by: 7) {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            value |= UInt32(byte & 0x7F) << UInt32(shift)
            if byte & 0x80 == 0 {
                cursor = index
                return value
            }
        }
        throw .overlongVarint
    }
}
