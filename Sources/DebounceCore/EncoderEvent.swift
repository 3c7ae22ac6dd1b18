/// One detent of a rotary encoder, as a `QuadratureDecoder` reports it.
public struct EncoderEvent: Sendable, Hashable {
    /// Which way a detent turned (after `EncoderConfiguration.reverse`).
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// Clockwise (A leads, unless reversed): the position rises. Its JSON name is `cw`.
        case clockwise = "cw"
        /// Anticlockwise: the position falls. Its JSON name is `ccw`.
        case counterClockwise = "ccw"
    }

    /// Which way the knob turned.
    public var direction: Direction
    /// The position after this detent: clamped or wrapped into `EncoderConfiguration.range`.
    public var position: Int
    /// How far this detent moved the position before any clamping: 1, or the acceleration factor
    /// when the knob turned at or above the acceleration threshold.
    public var increment: Int
    /// The speed of the turn, in detents per second: over the detents of the same direction within
    /// `EncoderConfiguration.velocityWindowNs` (at most the latest 8), or, with no other there, from
    /// the time since the previous detent; 0 for the decoder's first detent. A `Double` because it spans from a
    /// fraction of a detent per second to thousands, and every consumer (JSON, a threshold, Home
    /// Assistant) wants a number, not a unit to divide by. It is computed from integer nanoseconds,
    /// so the same edges always give the same value.
    public var velocity: Double
    /// When the detent completed, in nanoseconds of `CLOCK_MONOTONIC`: the time of the change that
    /// reached the detent position. (A detent completed by a skipped state is reported once the
    /// changes after it show its direction, but stamped with its own time.)
    public var timeNs: Int64
    /// When the turn to this detent began, in nanoseconds: the latest time the lines left the previous
    /// detent position (so a jiggle before the turn does not count; with bounce on that first
    /// transition, its last bounce edge). Always `onsetNs <= timeNs`.
    public var onsetNs: Int64

    @inlinable
    public init(direction: Direction, position: Int, increment: Int = 1, velocity: Double = 0, timeNs: Int64, onsetNs: Int64) {
        self.direction = direction
        self.position = position
        self.increment = increment
        self.velocity = velocity
        self.timeNs = timeNs
        self.onsetNs = onsetNs
    }
}
