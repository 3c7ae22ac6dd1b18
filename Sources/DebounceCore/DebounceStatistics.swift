/// Counts of what the debouncer saw, for summaries and lost-event reports. Plain counts: O(1) memory.
public struct DebounceStatistics: Sendable, Hashable {
    /// Edges received, including duplicates and clamped ones (not resync corrections).
    public var edges: Int = 0
    /// Edges whose level equalled the raw level already known: evidence that the opposite edge was
    /// lost (the kernel's event queue overflowed). They restart a pending window; while settled they are ignored.
    public var duplicateEdges: Int = 0
    /// Edges stamped earlier than a time the debouncer had already reached; applied as if stamped at that time.
    public var clampedTimestamps: Int = 0
    /// Re-reads of the line's level (`Debouncer.resync`) that found a level the edges had not shown:
    /// edges were lost, and the debouncer corrected itself.
    public var resyncCorrections: Int = 0
    /// Press events reported.
    public var presses: Int = 0
    /// Release events reported.
    public var releases: Int = 0
    /// Edges of bursts that reported an event, beyond the edges that made the events: the bounce of
    /// presses and releases, absorbed. (A burst runs from the first edge that leaves a settled state
    /// to the decision that settles again.)
    public var bouncesAbsorbed: Int = 0
    /// Bursts of one or two edges that reported no event: a pulse too short to become a press or a
    /// release (away and back within the window).
    public var glitchesRejected: Int = 0
    /// Bursts of three or more edges that reported no event: noise on the line (interference, a
    /// button touched but not pressed).
    public var noiseBursts: Int = 0

    public init() {}
}
