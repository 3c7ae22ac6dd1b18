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
    @inline(__always)
    public mutating func put(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        precondition(count + length <= capacity, "ByteWriter: the buffer is too small")
        (start + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// The bytes `format` writes into fresh memory of `maximumCount` bytes: for text formatted once
    /// and kept (`EventFields`, `EventWriter.jsonObject`).
    public static func bytes(maximumCount: Int, _ format: (inout ByteWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: maximumCount) { memory, count in
            guard let start = memory.baseAddress else { return }
            var writer = ByteWriter(start: start, capacity: maximumCount)
            format(&writer)
            count = writer.count
        }
    }

    /// Writes a string's UTF-8 bytes. (Not an overload of `put`: a string literal would pick it over
    /// `put(StaticString)` and be copied a byte at a time, some 800 instructions per JSON line.)
    public mutating func putUTF8(_ text: String) {
        for byte in text.utf8 { put(byte) }
    }

    /// Writes bytes formatted before (`EventFields`).
    public mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { put($0) }
    }

    /// Writes bytes formatted before, from memory the caller owns (`EventFieldTable`).
    @inline(__always)
    public mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(count + bytes.count <= capacity, "ByteWriter: the buffer is too small")
        guard let source = bytes.baseAddress else { return }
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Writes again the `count` bytes written from position `start` on (a number already formatted).
    @inline(__always)
    public mutating func putAgain(from start: Int, count: Int) {
        precondition(start >= 0 && count >= 0 && start + count <= self.count, "ByteWriter: not written yet")
        precondition(self.count + count <= capacity, "ByteWriter: the buffer is too small")
        (self.start + self.count).update(from: self.start + start, count: count)
        self.count += count
    }

    /// Writes `value` in decimal (at most 20 bytes): its digits counted first, then written in place
    /// from the right, two per division.
    public mutating func put(_ value: Int64) {
        precondition(count + 20 <= capacity, "ByteWriter: the buffer is too small")
        if value < 0 {
            start[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        let digits = Self.decimalDigitCount(magnitude)
        var next = start + count + digits  // one past the lowest digit
        let pairs = Self.digitPairs.utf8Start
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
            magnitude /= 100
            next -= 2
            next[0] = pairs[pair]
            next[1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude) &* 2
            next[-2] = pairs[pair]
            next[-1] = pairs[pair + 1]
        } else {
            next[-1] = UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0")
        }
        count += digits
    }

    /// How many decimal digits `value` has (1 to 20): its bit length times log10(2) (1233 / 4096) is
    /// the number of digits or one more, which one comparison settles (Bit Twiddling Hacks, "integer
    /// log base 10").
    @inline(__always)
    static func decimalDigitCount(_ value: UInt64) -> Int {
        let estimate = ((64 &- value.leadingZeroBitCount) &* 1233) >> 12  // 0...19
        return max(1, estimate &+ 1 &- (value < powerOfTen(estimate) ? 1 : 0))
    }

    /// 10 to the power `exponent`, for 0 to 19 (the powers of ten a `UInt64` can hold). A switch over
    /// literals, which the compiler makes a table in read-only data: a `static let` array would be
    /// initialized lazily, with a `swift_once` call into the runtime at every use.
    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// "00", "01"... "99" in a row: the two digits of `n` start at `2 × n`.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes `text` as a JSON string literal (`JSONText.escape`): at most `6 × utf8.count + 2` bytes.
    public mutating func putJSONString(_ text: String) {
        JSONText.escape(text) { put($0) }
    }

    /// The most bytes `putJSONString(text)` can write.
    public static func maximumJSONStringLength(_ text: String) -> Int { 6 * text.utf8.count + 2 }
}
