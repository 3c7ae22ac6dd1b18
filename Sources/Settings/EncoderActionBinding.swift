import DebounceCore

/// Which detents of an encoder start an action: `on: cw`, `on: ccw` or `on: rotate` (either way).
public enum EncoderTrigger: String, Sendable, Hashable, CaseIterable {
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
public struct EncoderActionBinding: Sendable, Hashable {
    /// The encoder's index (`PipelineOutput.rotation`).
    public var encoder: Int
    public var on: EncoderTrigger
    /// Index into the runner's actions.
    public var action: Int

    public init(encoder: Int, on: EncoderTrigger, action: Int) {
        self.encoder = encoder
        self.on = on
        self.action = action
    }
}
