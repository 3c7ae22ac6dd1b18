/// Why `EventLoop.run()` returned. Every reason but `reloadRequested` is a normal end: the caller prints
/// its summary and exits 0.
public enum StopReason: Sendable, Hashable {
    /// The source has no more edges (a simulated script ended) and everything was decided.
    case endOfInput
    /// `maximumEvents` events were reported.
    case eventLimit
    /// No edge for `idleTimeoutNs`.
    case idleTimeout
    /// The run's `durationNs` is over.
    case duration
    /// SIGINT or SIGTERM (its number), or the stop switch (`nil`).
    case interrupted(signal: Int32?)
    /// SIGHUP, in a run that watches it (`SignalDescriptor.Request.reload`): the loop returned without
    /// stopping anything, its lines still requested and its sinks not finished, so that its owner reads
    /// the configuration again and runs on (this loop again, or the next one, which carries its state).
    case reloadRequested
}

/// When a run stops by itself, and how long a stopping run waits for work in flight.
public struct LoopLimits: Sendable, Hashable {
    /// Stop after this many events (`PipelineOutput.event`, gestures included).
    public var maximumEvents: Int?
    /// Stop after this long with no edge, in nanoseconds.
    public var idleTimeoutNs: Int64?
    /// Stop this long after the start, in nanoseconds.
    public var durationNs: Int64?
    /// How long a stopping run lets running actions finish before killing them, in nanoseconds.
    public var shutdownGraceNs: Int64

    /// The default grace period: 5 s.
    public static let defaultShutdownGraceNs: Int64 = 5_000_000_000

    public init(maximumEvents: Int? = nil, idleTimeoutNs: Int64? = nil, durationNs: Int64? = nil, shutdownGraceNs: Int64 = Self.defaultShutdownGraceNs) {
        self.maximumEvents = maximumEvents
        self.idleTimeoutNs = idleTimeoutNs
        self.durationNs = durationNs
        self.shutdownGraceNs = shutdownGraceNs
    }
}
