import DebounceCore

/// A debounced event on one of the loop's lines, with that line's statistics at the time.
public struct LineEvent: Sendable {
    /// Which line, `0..<lineCount`.
    public var line: Int
    public var event: ButtonEvent
    /// The line's debouncer statistics just after this event.
    public var statistics: DebounceStatistics
}

/// The driver: runs one `Debouncer` per line over a `LineBackend`, the same loop for a simulated line
/// and for real pins.
///
/// It blocks in the backend's `wait` until the earliest deadline of any line's debouncer (or forever
/// while all are settled: zero wakeups when idle), feeds the edges, advances every debouncer to the
/// line's clock, and re-reads a line's level before a decision it wakes up for and each time a burst
/// settles (and when the input ends), so that edges lost by the kernel can neither leave the reported
/// state wrong nor make a phantom event.
public struct DebounceLoop<Line: LineBackend> {
    /// Why `run` returned.
    public enum Stop: Sendable, Hashable {
        /// The line has no more edges (a simulated script ended) and everything is decided.
        case endOfInput
        /// `maximumEvents` events were reported.
        case eventLimit
        /// Nothing happened for `idleTimeoutNs`.
        case idleTimeout
        /// SIGINT or SIGTERM arrived.
        case interrupted
    }

    public var line: Line
    /// One debouncer per line, in the backend's line order.
    public private(set) var debouncers: [Debouncer]
    /// The first line's debouncer: the only one when watching a single line.
    public var debouncer: Debouncer { debouncers[0] }
    /// Wakeups of the loop (returns from `wait`), for the zero-wakeups-while-idle promise.
    public private(set) var wakeups = 0
    private var edges: [LineEdge] = []
    private var needsResync: [Bool]

    /// Reads each line's initial level and starts a debouncer on it, with `configurations[i]` for
    /// line `i` (one configuration for all lines if only one is given).
    public init(line: Line, configurations: [DebounceConfiguration]) throws(LineError) {
        precondition(configurations.count == 1 || configurations.count == line.lineCount, "one configuration per line")
        self.line = line
        var debouncers: [Debouncer] = []
        for index in 0..<line.lineCount {
            let level = try self.line.readLevel(line: index)
            let configuration = configurations.count == 1 ? configurations[0] : configurations[index]
            debouncers.append(Debouncer(configuration: configuration, initialLevel: level, atNs: self.line.nowNs))
        }
        self.debouncers = debouncers
        self.needsResync = Array(repeating: false, count: line.lineCount)
        edges.reserveCapacity(64)
    }

    /// The same configuration for every line.
    public init(line: Line, configuration: DebounceConfiguration) throws(LineError) {
        try self.init(line: line, configurations: [configuration])
    }

    /// Runs until the line ends, `maximumEvents` events were reported, or nothing happened for
    /// `idleTimeoutNs` nanoseconds. Calls `onEdge` for each raw edge and `onEvent` for each event.
    ///
    /// A layer on top (gestures, actions) takes part through `extraDeadlineNs`, its own next deadline
    /// (the loop wakes for it too), and `onWake`, called with the line's time after every wakeup, once
    /// the debouncers have been advanced.
    public mutating func run(
        maximumEvents: Int? = nil, idleTimeoutNs: Int64? = nil,
        onEdge: (LineEdge) -> Void = { _ in }, onEvent: (LineEvent) throws -> Void,
        extraDeadlineNs: () -> Int64? = { nil }, onWake: (Int64) throws -> Void = { _ in }
    ) throws -> Stop {
        var reported = 0
        var lastActivityNs = line.nowNs
        func report(_ event: ButtonEvent?, line index: Int) throws -> Bool {
            guard let event else { return false }
            try onEvent(LineEvent(line: index, event: event, statistics: debouncers[index].statistics))
            reported += 1
            lastActivityNs = max(lastActivityNs, event.timeNs)
            return reported == maximumEvents
        }
        while true {
            let idleDeadlineNs = idleTimeoutNs.map { lastActivityNs + $0 }
            var deadlineNs = Self.earlier(idleDeadlineNs, extraDeadlineNs())
            for index in debouncers.indices {
                needsResync[index] = !debouncers[index].isSettled
                deadlineNs = Self.earlier(deadlineNs, debouncers[index].nextDeadlineNs)
            }
            edges.removeAll(keepingCapacity: true)
            let outcome = try line.wait(untilNs: deadlineNs, appendingTo: &edges)
            wakeups += 1
            for lineEdge in edges {
                onEdge(lineEdge)
                needsResync[lineEdge.line] = true
                lastActivityNs = max(lastActivityNs, lineEdge.edge.timeNs)
                if try report(debouncers[lineEdge.line].receive(lineEdge.edge), line: lineEdge.line) { return .eventLimit }
            }
            let nowNs = line.nowNs
            if outcome != .interrupted {
                // A decision is due and the queued edges are all in: re-read those lines first. An edge the
                // kernel dropped (its queue keeps the oldest events) would otherwise turn into a phantom
                // event now, and a correction after it; the level read counts as an edge at the deadline.
                for index in debouncers.indices {
                    guard let dueNs = debouncers[index].nextDeadlineNs, dueNs <= nowNs else { continue }
                    let level = try line.readLevel(line: index)
                    if level != debouncers[index].rawLevel {
                        if try report(debouncers[index].resync(level: level, atNs: dueNs), line: index) { return .eventLimit }
                    }
                }
            }
            var allSettled = true
            for index in debouncers.indices {
                if try report(debouncers[index].advance(toNs: nowNs), line: index) { return .eventLimit }
                // Re-read the level whenever a line settles after activity, and before giving up at the
                // end of the input: a lost final edge would otherwise leave the reported state wrong.
                if debouncers[index].isSettled, needsResync[index] || outcome == .endOfInput {
                    let level = try line.readLevel(line: index)
                    if try report(debouncers[index].resync(level: level, atNs: nowNs), line: index) { return .eventLimit }
                }
                allSettled = allSettled && debouncers[index].isSettled
            }
            try onWake(nowNs)
            allSettled = allSettled && extraDeadlineNs() == nil
            switch outcome {
            case .interrupted:
                return .interrupted
            case .endOfInput where allSettled:
                return .endOfInput
            case .timedOut where allSettled:
                if let idleDeadlineNs, nowNs >= idleDeadlineNs { return .idleTimeout }
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
