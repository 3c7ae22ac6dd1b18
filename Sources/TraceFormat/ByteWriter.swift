/// Formats bytes straight into memory it does not own (a stack buffer handed out by
/// `OutputBuffer.appendFormatted`): no capacity or uniqueness check per byte, which is what makes an
/// event's JSON line cheap. The caller sizes the memory: every `put` traps if it would run past the end.
public struct ByteWriter: ~Copyable {
    private let start: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    public private(set) var count = 0

    init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }

    /// Writes one byte.
    @inline(__always)
    public mutating func put(_ byte: UInt8) {
        precondition(count < capacity, "ByteWriter: the buffer is too small")
        start[count] = byte
        count += 1
    }

    /// Writes ASCII or UTF-8 text.
    public mutating func put(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        precondition(count + length <= capacity, "ByteWriter: the buffer is too small")
        (start + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// Writes `value` in decimal (at most 20 bytes).
    public mutating func put(_ value: Int64) {
        precondition(count + 20 <= capacity, "ByteWriter: the buffer is too small")
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 0
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &scratch) { scratch in
            repeat {
                scratch[digits] = UInt8(truncatingIfNeeded: magnitude % 10) + UInt8(ascii: "0")
                magnitude /= 10
                digits += 1
            } while magnitude > 0
            for index in stride(from: digits - 1, through: 0, by: -1) {
                start[count] = scratch[index]
                count += 1
            }
        }
    }

    /// Writes `text` as a JSON string literal (`JSONText.escape`): at most `6 × utf8.count + 2` bytes.
    public mutating func putJSONString(_ text: String) {
        JSONText.escape(text) { put($0) }
    }

    /// The most bytes `putJSONString(text)` can write.
    public static func maximumJSONStringLength(_ text: String) -> Int { 6 * text.utf8.count + 2 }
}
