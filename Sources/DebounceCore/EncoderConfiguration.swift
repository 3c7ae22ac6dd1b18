/// Everything a `QuadratureDecoder` needs to know about one rotary encoder.
///
/// Convention (gpiozero's): at rest both switches are open and both lines read 1 (pull-ups);
/// clockwise, A leads: (A, B) goes 11 → 01 → 00 → 10 → 11. Each change of one line is one
/// *transition* (a quarter of the cycle); a *detent* is `stepsPerDetent` transitions.
public struct EncoderConfiguration: Sendable, Hashable {
    /// How many transitions make one detent, and so where the detents are.
    public enum StepsPerDetent: Int, Sendable, Hashable, CaseIterable {
        /// Every transition is a detent (encoders with four detents per cycle). A reversal's first
        /// transition counts once the lines have held still for `settleNs` (bounce does not hold), or
        /// when a second transition the same way follows (see `QuadratureDecoder`).
        case one = 1
        /// Detents at 11 and 00: two per cycle.
        case two = 2
        /// One detent per full cycle, at 11: the common KY-040 and EC11.
        case four = 4
    }

    /// Acceleration: a detent turned at `thresholdPerSecond` or faster moves the position by `factor`.
    public struct Acceleration: Sendable, Hashable {
        /// The speed, in detents per second (`EncoderEvent.velocity`), from which a detent counts `factor`.
        public var thresholdPerSecond: Double
        /// How much a detent at or above the threshold moves the position; less than 1 counts as 1.
        public var factor: Int

        public init(thresholdPerSecond: Double, factor: Int) {
            self.thresholdPerSecond = thresholdPerSecond
            self.factor = factor
        }
    }

    /// Transitions per detent. Default `.four`.
    public var stepsPerDetent: StepsPerDetent
    /// Swaps the directions: the events of a clockwise turn say anticlockwise, and the position falls.
    public var reverse: Bool
    /// The positions allowed, `nil` for any `Int` (the position then saturates at `Int.min`/`Int.max`).
    /// A one-sided limit is a range to `Int.max` or from `Int.min`.
    public var range: ClosedRange<Int>?
    /// With a `range`: a detent past one end moves to the other end (a menu that goes round) instead of
    /// staying at the end (a volume that stops at 100).
    public var wraps: Bool
    /// Acceleration, or `nil` for none: every detent moves the position by 1.
    public var acceleration: Acceleration?
    /// How far back `EncoderEvent.velocity` looks, in nanoseconds. Default 100 ms.
    public var velocityWindowNs: Int64
    /// With `.one` step per detent: how long the lines must hold still after a reversal's first
    /// transition before it counts, in nanoseconds (longer than the switches' bounce, shorter than a
    /// hand's pause). Unused with two or four steps per detent. Default 5 ms.
    public var settleNs: Int64

    /// The default velocity window: 100 ms, a few detents of a brisk turn.
    public static let defaultVelocityWindowNs: Int64 = 100_000_000
    /// The default settle time: 5 ms, above the bounce of an encoder's switches (well under a
    /// millisecond to a few) and far below the time a hand holds a reversed knob.
    public static let defaultSettleNs: Int64 = 5_000_000

    public init(
        stepsPerDetent: StepsPerDetent = .four,
        reverse: Bool = false,
        range: ClosedRange<Int>? = nil,
        wraps: Bool = false,
        acceleration: Acceleration? = nil,
        velocityWindowNs: Int64 = EncoderConfiguration.defaultVelocityWindowNs,
        settleNs: Int64 = EncoderConfiguration.defaultSettleNs
    ) {
        self.stepsPerDetent = stepsPerDetent
        self.reverse = reverse
        self.range = range
        self.wraps = wraps
        self.acceleration = acceleration
        self.velocityWindowNs = velocityWindowNs
        self.settleNs = settleNs
    }

    /// `position` inside the range (the nearer end when outside), or unchanged without a range.
    public func clamped(_ position: Int) -> Int {
        guard let range else { return position }
        return min(max(position, range.lowerBound), range.upperBound)
    }

    /// `position` (inside the range) moved by `delta`: clamped at the range's ends, or wrapped round
    /// when `wraps`; without a range, saturating at `Int.min` and `Int.max`.
    public func moved(_ position: Int, by delta: Int) -> Int {
        guard let range else {
            let (sum, overflow) = position.addingReportingOverflow(delta)
            return overflow ? (delta > 0 ? .max : .min) : sum
        }
        let up = delta > 0
        // The distance to the end the position moves towards, and how far it moves, both as unsigned
        // numbers: `upperBound - lowerBound` can exceed `Int.max`.
        let room = up ? UInt(bitPattern: range.upperBound &- position) : UInt(bitPattern: position &- range.lowerBound)
        let distance = delta.magnitude
        if distance <= room { return position &+ delta }
        guard wraps else { return up ? range.upperBound : range.lowerBound }
        // Past the end by `distance - room`: the first of those lands on the other end.
        let size = UInt(bitPattern: range.upperBound &- range.lowerBound) &+ 1  // 0: the range is all of Int
        let beyond = distance - room - 1
        let offset = Int(bitPattern: size == 0 ? beyond : beyond % size)
        return up ? range.lowerBound &+ offset : range.upperBound &- offset
    }
}
