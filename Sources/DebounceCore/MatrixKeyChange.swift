/// A key of a matrix read down or up by `MatrixScanner`: a raw reading, before any debouncing.
public struct MatrixKeyChange: Sendable, Hashable {
    /// The key's number: `row * columns + column` (`MatrixConfiguration.key(row:column:)`).
    public var key: Int
    /// `true` when the key was found down (closed), `false` when found up.
    public var isDown: Bool
    /// When, in nanoseconds of `CLOCK_MONOTONIC`: for a key found down by a scan a row edge began, the
    /// edge's time; otherwise the time its column was read.
    public var timeNs: Int64

    public init(key: Int, isDown: Bool, timeNs: Int64) {
        self.key = key
        self.isDown = isDown
        self.timeNs = timeNs
    }
}
