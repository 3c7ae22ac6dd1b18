/// Counts of what a `QuadratureDecoder` saw, for summaries and lost-event reports. Plain counts: O(1) memory.
public struct EncoderStatistics: Sendable, Hashable {
    /// Line changes received: each `receive(line:level:atNs:)`, and each line that changed in a
    /// `receive(a:b:atNs:)` (not resync corrections).
    public var changes: Int = 0
    /// Changes of a line to the level it already had: the kernel lost the edge between (they change nothing).
    public var duplicateChanges: Int = 0
    /// Changes stamped earlier than a time the decoder had already reached; applied at that time.
    public var clampedTimestamps: Int = 0
    /// Observations in which both lines changed: a state was skipped, so the direction cannot be read.
    public var skips: Int = 0
    /// Skips whose direction was inferred (the changes just before and just after went that way).
    public var inferredSkips: Int = 0
    /// Skips whose direction could not be inferred: their two transitions are lost, and with them the
    /// detents up to the next detent position (see `QuadratureDecoder`). Report them as lost events.
    public var lostSkips: Int = 0
    /// Resyncs (`QuadratureDecoder.resync`) that found levels the changes had not shown.
    public var resyncCorrections: Int = 0
    /// Clockwise detents reported.
    public var clockwise: Int = 0
    /// Anticlockwise detents reported.
    public var counterClockwise: Int = 0

    /// Detents reported, either way.
    public var detents: Int { clockwise + counterClockwise }

    public init() {}
}
