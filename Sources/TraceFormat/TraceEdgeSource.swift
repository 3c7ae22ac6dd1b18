import DebounceCore
import EventLoop
import Pipeline

/// A recorded trace as the `EdgeSource` of one line, for a run in virtual time (`RunAssembly.trace`):
/// each edge is due at its own timestamp, so the loop wakes at every edge and at every stage's deadline
/// in between, exactly as it does for the live line; the trace is read one edge ahead (bounded memory,
/// any length).
///
/// At the end of the trace the run ends (`endsAtLastEdge`): decisions still pending are made as if
/// time ran on, and nothing is timed past the last edge (a trace does not say how long a button stayed
/// down). A trace that cannot be read on (a malformed line, a failed read) ends the run at the last
/// good edge with `LineError.inputUnreadable`; `failure` then holds the `TraceError`.
package final class TraceEdgeSource: EdgeSource {
    package let lineCount = 1
    /// The initial level's timestamp, in nanoseconds: where the run's virtual clock starts.
    package let startNs: Int64
    /// Edges delivered so far (not the initial level).
    @exclusivity(unchecked) package private(set) var deliveredEdges = 0
    /// Why the trace could not be read to its end, if it could not.
    @exclusivity(unchecked) package private(set) var failure: TraceError?

    private let trace: any TraceSource
    /// The level after the latest delivered edge.
    // Unchecked: only the loop's thread touches them, one call at a time (no dynamic exclusivity
    // check on each edge).
    @exclusivity(unchecked) private var level: Level
    @exclusivity(unchecked) private var latestNs: Int64
    /// The next edge, read ahead; `nil` at the end or at a failure.
    @exclusivity(unchecked) private var upcoming: Edge?

    /// Reads the trace's initial level (`TraceError.noData` if it has none) and its first edge.
    package init(trace: any TraceSource) throws(TraceError) {
        guard let initial = try trace.next() else { throw .noData(source: trace.sourceName) }
        self.trace = trace
        self.startNs = initial.timeNs
        self.level = initial.level
        self.latestNs = initial.timeNs
        readAhead()
    }

    package var endsAtLastEdge: Bool { true }

    /// The next edge's time; at a failure, the latest edge's (due at once, to report it).
    package var nextDueNs: Int64? { upcoming?.timeNs ?? (failure == nil ? nil : latestNs) }

    package var isExhausted: Bool { upcoming == nil && failure == nil }

    package func readLevel(line: Int) -> Level { level }

    /// Throws at a failure once every edge before it was delivered (and so went through the stages).
    package func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {
        if upcoming == nil, let failure { throw .inputUnreadable(reason: failure.description) }
        while let edge = upcoming, edge.timeNs <= timeNs {
            batch.edges.append(LineEdge(line: 0, edge: edge))
            level = edge.level
            latestNs = max(latestNs, edge.timeNs)
            deliveredEdges += 1
            readAhead()
        }
    }

    private func readAhead() {
        do {
            upcoming = try trace.next()
        } catch {
            upcoming = nil
            failure = error
        }
    }
}
