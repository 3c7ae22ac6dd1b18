/// What a rotary encoder sends on the virtual keyboard, per detent: a key tap (`keys: {cw: KEY_VOLUMEUP,
/// ccw: KEY_VOLUMEDOWN}`), or a step of a relative axis (`axis: REL_WHEEL`), in a configuration's `encoders:`.
package struct EncoderKeyBinding: Sendable, Hashable {
    /// The encoder: its input (`OutputSource.input` of its detents).
    package var input: Int
    /// Key codes a clockwise detent taps (a combination goes down in this order), and a counter-clockwise one.
    package var clockwise: [UInt16]
    package var counterClockwise: [UInt16]
    /// A relative axis (`REL_WHEEL` 8, `REL_DIAL` 7, `REL_HWHEEL` 6) instead of keys: +1 per clockwise
    /// detent, -1 per counter-clockwise one (times the acceleration factor).
    package var axis: UInt16?

    package init(input: Int, clockwise: [UInt16] = [], counterClockwise: [UInt16] = [], axis: UInt16? = nil) {
        self.input = input
        self.clockwise = clockwise
        self.counterClockwise = counterClockwise
        self.axis = axis
    }
}
