/// Which detents of an encoder start an action: `on: cw`, `on: ccw` or `on: rotate` (either way).
package enum EncoderTrigger: String, Sendable, Hashable, CaseIterable {
    case cw, ccw, rotate
}
