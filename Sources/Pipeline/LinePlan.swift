import DebounceCore

/// Which stages one line goes through.
public struct LinePlan: Sendable, Hashable {
    /// The debouncer's strategies and polarity; `nil` for a raw line (recording), whose edges reach the
    /// sinks undebounced.
    public var debounce: DebounceConfiguration?
    /// The gestures on top of press and release; the default passes them through unchanged.
    public var gestures: GestureConfiguration
    /// Index of the line's `GroupLockout` in the pipeline's groups, if it belongs to one.
    public var group: Int?

    public init(debounce: DebounceConfiguration?, gestures: GestureConfiguration = GestureConfiguration(), group: Int? = nil) {
        self.debounce = debounce
        self.gestures = gestures
        self.group = group
    }

    /// A raw line: edges only, for recording.
    public static let raw = LinePlan(debounce: nil)
}
