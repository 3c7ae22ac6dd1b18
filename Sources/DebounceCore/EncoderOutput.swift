/// The detents one input of a `QuadratureDecoder` reports, in time order, without allocating.
///
/// One input applies at most two observations (one gathered earlier, one of its own), and they
/// complete at most four detents: three transitions at most (a skipped state inferred, then the change
/// that confirmed it), each a detent at most (with `.one` step per detent), plus one transition of the
/// second observation.
public struct EncoderOutput: RandomAccessCollection, Sendable, Equatable {
    /// The most events one input can produce.
    public static let capacity = 4

    /// How many events there are.
    public private(set) var count = 0
    private var slots = InlineArray<4, EncoderEvent>(repeating: EncoderEvent(direction: .clockwise, position: 0, timeNs: 0, onsetNs: 0))

    /// No events.
    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> EncoderEvent {
        precondition(position >= 0 && position < count, "EncoderOutput index out of range")
        return slots[position]
    }

    /// Adds an event; more than `capacity` is a bug in the decoder (see the capacity argument above).
    mutating func append(_ event: EncoderEvent) {
        precondition(count < Self.capacity, "EncoderOutput capacity exceeded")
        slots[count] = event
        count += 1
    }

    public static func == (lhs: EncoderOutput, rhs: EncoderOutput) -> Bool {
        lhs.elementsEqual(rhs)
    }
}
