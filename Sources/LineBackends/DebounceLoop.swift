import DebounceCore

/// The driver: runs a `Debouncer` over a `LineBackend`, the same loop for a simulated line and a real one.
///
/// It blocks in the backend's `wait` until the debouncer's next deadline (or forever while settled: zero
/// wakeups when idle), feeds the edges, advances the debouncer to the line's clock, and re-reads the
/// line's level each time a burst settles (and when the input ends), so that edges lost by the kernel
/// cannot leave the reported state wrong.
public struct DebounceLoop<Line: LineBackend> {
    /// Why `run` returned.
    public enum Stop: Sendable, Hashable {
        /// The line has no more edges (a simulated script ended) and everything is decided.
        case endOfInput
        /// `maximumEvents` events were reported.
        case eventLimit
        /// Nothing happened for `idleTimeoutNs`.
        case idleTimeout
    }

    public var line: Line
    public private(set) var debouncer: Debouncer
    /// Wakeups of the loop (returns from `wait`), for the zero-wakeups-while-idle promise.
    public private(set) var wakeups = 0
    private var edges: [Edge] = []

    /// Reads the line's initial level and starts a debouncer on it.
    public init(line: Line, configuration: DebounceConfiguration) throws(LineError) {
        self.line = line
        let level = try self.line.readLevel()
        self.debouncer = Debouncer(configuration: configuration, initialLevel: level, atNs: self.line.nowNs)
        edges.reserveCapacity(64)
    }

    /// Runs until the line ends, `maximumEvents` events were reported, or nothing happened for
    /// `idleTimeoutNs` nanoseconds. Calls `onEdge` for each raw edge and `onEvent` for each event.
    public mutating func run(
        maximumEvents: Int? = nil, idleTimeoutNs: Int64? = nil,
        onEdge: (Edge) -> Void = { _ in }, onEvent: (ButtonEvent) throws -> Void
    ) throws -> Stop {
        var reported = 0
        var lastActivityNs = line.nowNs
        func report(_ event: ButtonEvent?) throws -> Bool {
            guard let event else { return false }
            try onEvent(event)
            reported += 1
            lastActivityNs = event.timeNs
            return reported == maximumEvents
        }
        while true {
            let idleDeadlineNs = idleTimeoutNs.map { lastActivityNs + $0 }
            let deadlineNs = Self.earlier(debouncer.nextDeadlineNs, idleDeadlineNs)
            edges.removeAll(keepingCapacity: true)
            let outcome = try line.wait(untilNs: deadlineNs, appendingTo: &edges)
            wakeups += 1
            let wasPending = !debouncer.isSettled
            for edge in edges {
                onEdge(edge)
                lastActivityNs = max(lastActivityNs, edge.timeNs)
                if try report(debouncer.receive(edge)) { return .eventLimit }
            }
            if try report(debouncer.advance(toNs: line.nowNs)) { return .eventLimit }
            // Re-read the level whenever the debouncer settles after activity, and before giving up at the
            // end of the input: a lost final edge would otherwise leave the reported state wrong.
            if debouncer.isSettled, wasPending || !edges.isEmpty || outcome == .endOfInput {
                if try report(debouncer.resync(level: try line.readLevel(), atNs: line.nowNs)) { return .eventLimit }
            }
            switch outcome {
            case .endOfInput where debouncer.isSettled:
                return .endOfInput
            case .timedOut where debouncer.isSettled:
                if let idleDeadlineNs, line.nowNs >= idleDeadlineNs { return .idleTimeout }
            default:
                break
            }
        }
    }

    /// The earlier of two optional deadlines (`nil` is "never").
    private static func earlier(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}
