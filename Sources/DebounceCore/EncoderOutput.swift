/// The detents one input of a `QuadratureDecoder` reports, in time order, without allocating.
///
/// One input applies at most two observations (one gathered earlier, one of its own). Each moves the
/// knob one transition, except the one that shows a waiting skip's direction: it applies the skip's two
/// transitions, the first move on from its landing and its own, four transitions; only one of the two
/// observations can settle a skip, so one input moves the knob at most five transitions. Each of them
/// completes at most one detent (with `.one` step per detent), and at most one position reached before
/// the input and not yet counted (a reversal's first transition) counts during it, by settling or when
/// the reversal moves on: six detents at most.
public struct EncoderOutput: RandomAccessCollection, Sendable, Equatable {
    /// The most events one input can produce.
    public static let capacity = 6

    /// How many events there are.
    public private(set) var count = 0
    private var slots = InlineArray<6, EncoderEvent>(repeating: EncoderEvent(direction: .clockwise, position: 0, timeNs: 0, onsetNs: 0))

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
