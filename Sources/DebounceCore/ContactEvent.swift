/// A contact's reported state changed (`ContactFilter`).
public struct ContactEvent: Sendable, Hashable {
    /// The state now: on (the debounced line is active: a door open, motion seen) or off.
    public var isOn: Bool
    /// When the state was reported, in nanoseconds of `CLOCK_MONOTONIC`: its onset plus its delay
    /// (`ContactConfiguration`), or the debouncer's decision when that came later.
    public var timeNs: Int64
    /// When the contact really changed, in nanoseconds: the onset of the debounced event that began
    /// this state. Always `onsetNs <= timeNs`.
    public var onsetNs: Int64
    /// How long the previous state lasted, in nanoseconds: this onset minus the previous state's onset
    /// (0 for the first change, whose previous state began before the run).
    public var previousDurationNs: Int64

    @inlinable
    public init(isOn: Bool, timeNs: Int64, onsetNs: Int64, previousDurationNs: Int64 = 0) {
        self.isOn = isOn
        self.timeNs = timeNs
        self.onsetNs = onsetNs
        self.previousDurationNs = previousDurationNs
    }
}
