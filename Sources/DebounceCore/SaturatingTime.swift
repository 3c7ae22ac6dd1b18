extension Int64 {
    /// `self + durationNs` for a time in nanoseconds and a duration, saturating at `Int64.max` instead of
    /// trapping, and treating a negative duration as 0: a deadline never wraps into the past.
    @inlinable
    public func adding(durationNs: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(Swift.max(0, durationNs))
        return overflow ? .max : sum
    }
}

extension Int64 {
    /// The duration from `startNs` to `self`, in nanoseconds, for two times in nanoseconds: 0 when
    /// `startNs` is later, and `Int64.max` when the difference does not fit (times from no real clock).
    @inlinable
    public func durationNs(since startNs: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(startNs)
        if overflow { return self > startNs ? .max : 0 }
        return Swift.max(0, difference)
    }
}
