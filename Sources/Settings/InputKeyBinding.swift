/// What an input's outputs send on the virtual keyboard: those of input `input` (`OutputSource.input`)
/// that answer `on` (`ActionOccasion.on` or `.alsoOn`), of run line `line` only when set (a button's,
/// a matrix's key), and for clicks of `count` only when set, send `keys` or move `axis`.
///
/// Keys are a single key or a combination (`[KEY_LEFTCTRL, KEY_C]`): a combination goes down in its
/// order and comes up in reverse. Held keys (`isHeld`: a button's own `key:`, a `hold` action's keys, a
/// matrix's `key_map:`) go down at the output and come up at the line's release; others are tapped:
/// down, then up, as two reports. An axis (`REL_WHEEL` 8, `REL_DIAL` 7, `REL_HWHEEL` 6) moves by the
/// output's step (an encoder's detent: +1 clockwise, -1 anticlockwise, times its acceleration).
package struct InputKeyBinding: Sendable, Hashable {
    package var input: Int
    package var line: Int?
    package var on: String
    /// For clicks: only this count (nil: any).
    package var count: Int?
    /// Key codes (`linux/input-event-codes.h`), in the order they go down; empty for an axis.
    package var keys: [UInt16]
    /// Whether the keys stay down until the line's release (else they are tapped).
    package var isHeld: Bool
    /// A relative axis the output moves instead of keys; nil for keys.
    package var axis: UInt16?

    /// Keys `keys` sent by the outputs of input `input` (its line `line`, if set) answering `on`.
    package init(input: Int, line: Int? = nil, on: String, count: Int? = nil, keys: [UInt16], isHeld: Bool = false) {
        self.input = input
        self.line = line
        self.on = on
        self.count = count
        self.keys = keys
        self.isHeld = isHeld
    }

    /// Axis `axis` moved by the outputs of input `input` answering `on`.
    package init(input: Int, on: String, axis: UInt16) {
        self.init(input: input, on: on, keys: [])
        self.axis = axis
    }
}
