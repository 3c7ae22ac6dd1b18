import DebounceCore

/// Which detents of an encoder start an action: `on: cw`, `on: ccw` or `on: rotate` (either way).
package enum EncoderTrigger: String, Sendable, Hashable, CaseIterable {
    case cw, ccw, rotate

    package func matches(_ direction: EncoderEvent.Direction) -> Bool {
        switch self {
        case .rotate: true
        case .cw: direction == .clockwise
        case .ccw: direction == .counterClockwise
        }
    }
}

/// Which action a detent of an encoder starts.
package struct EncoderActionBinding: Sendable, Hashable {
    /// The encoder: its input (`OutputSource.input` of its detents).
    package var input: Int
    package var on: EncoderTrigger
    /// Index into the runner's actions.
    package var action: Int

    package init(input: Int, on: EncoderTrigger, action: Int) {
        self.input = input
        self.on = on
        self.action = action
    }
}
