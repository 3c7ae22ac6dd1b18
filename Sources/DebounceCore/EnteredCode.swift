/// A code a `CodeCollector` completed.
public struct EnteredCode: Sendable, Hashable {
    /// The keys collected, in the order pressed (without the end key).
    public var code: String
    /// When the press that completed it was decided, in nanoseconds of `CLOCK_MONOTONIC`.
    public var timeNs: Int64

    public init(code: String, timeNs: Int64) {
        self.code = code
        self.timeNs = timeNs
    }
}
