extension QuadratureDecoder {
    /// A skip and the single transitions after it, not yet applied to `transitions`.
    struct PendingSkip: Sendable {
        /// When both lines changed.
        var timeNs: Int64
        /// The direction of the single transition before the skip (+1, -1; 0 when none counts).
        var before: Int
        /// The transitions moved since the landing, clockwise positive (0 or `before` while waiting).
        var offset = 0
        /// The first and the latest time the lines moved from the landing one transition on, the way
        /// they moved before the skip.
        var firstAheadNs: Int64?
        var latestAheadNs: Int64 = 0
    }
}
