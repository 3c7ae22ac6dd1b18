extension Int64 {
    /// `self + durationNs` for a time in nanoseconds and a duration, saturating at `Int64.max` instead of
    /// trapping, and treating a negative duration as 0: a deadline never wraps into the past.
    @inlinable
    public func adding(durationNs: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(Swift.max(0, durationNs))
        return overflow ? .max : sum
    }
}
