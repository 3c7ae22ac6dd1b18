/// One edge of a GPIO line: the level the line moved to, and when.
///
/// `timeNs` is in nanoseconds of `CLOCK_MONOTONIC`, the clock the kernel stamps GPIO edge
/// events with (libgpiod's `gpiod_edge_event_get_timestamp_ns`). Only differences between times
/// matter to the debouncer, so any monotonic nanosecond time base works (a recorded trace may start at 0).
public struct Edge: Sendable, Hashable {
    /// The raw level after the edge.
    public var level: Level
    /// When the edge happened, in nanoseconds of `CLOCK_MONOTONIC`.
    public var timeNs: Int64

    @inlinable
    public init(level: Level, timeNs: Int64) {
        self.level = level
        self.timeNs = timeNs
    }
}
