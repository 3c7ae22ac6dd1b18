import DebounceCore
import EventLoop
import Pipeline

/// A recorded trace of several lines (a rotary encoder's A and B) as one `EdgeSource`, for a run in
/// virtual time (`RunAssembly.trace(lines:)`): as `TraceEdgeSource` for one line, each edge is due at
/// its own timestamp, edges with one timestamp arrive in one batch (one observation), and the trace
/// is read one edge ahead (bounded memory, any length).
///
/// Every line's initial level is read first: a trace must give each line's before any edge
/// (`TraceError.noInitialLevel` otherwise). At the end of the trace the run ends (`endsAtLastEdge`).
/// A trace that cannot be read on ends the run at the last good edge with `LineError.inputUnreadable`;
/// `failure` then holds the `TraceError`.
package final class TraceLinesEdgeSource: EdgeSource {
    package let lineCount: Int
    /// The first initial level's timestamp, in nanoseconds: where the run's virtual clock starts.
    package let startNs: Int64
    /// Edges delivered so far (not the initial levels).
    @exclusivity(unchecked) package private(set) var deliveredEdges = 0
    /// Why the trace could not be read to its end, if it could not.
    @exclusivity(unchecked) package private(set) var failure: TraceError?

    private let trace: any TraceLinesSource
    /// Each line's level after its latest delivered edge.
    // Unchecked: only the loop's thread touches them, one call at a time.
    @exclusivity(unchecked) private var levels: [Level]
    @exclusivity(unchecked) private var latestNs: Int64
    /// The next edge, read ahead; `nil` at the end or at a failure.
    @exclusivity(unchecked) private var upcoming: LineEdge?

    /// Reads every line's initial level and the first edge after them. Throws `TraceError.noData`
    /// for a trace without a record, `.noInitialLevel` for a line whose initial level does not come
    /// before the other lines' edges, and what reading throws.
    package init(trace: any TraceLinesSource) throws(TraceError) {
        guard let first = try trace.nextLineEdge() else { throw .noData(source: trace.sourceName) }
        var initial = [Level?](repeating: nil, count: trace.lineCount)
        initial[first.line] = first.edge.level
        while let missing = initial.firstIndex(of: nil) {
            guard let record = try trace.nextLineEdge(), initial[record.line] == nil else {
                throw .noInitialLevel(source: trace.sourceName, line: trace.lineName(missing))
            }
            initial[record.line] = record.edge.level
        }
        self.trace = trace
        self.lineCount = trace.lineCount
        self.startNs = first.edge.timeNs
        self.levels = initial.map { $0 ?? .high }
        self.latestNs = first.edge.timeNs
        readAhead()
    }

    package var endsAtLastEdge: Bool { true }

    /// The next edge's time; at a failure, the latest edge's (due at once, to report it).
    package var nextDueNs: Int64? { upcoming?.edge.timeNs ?? (failure == nil ? nil : latestNs) }

    package var isExhausted: Bool { upcoming == nil && failure == nil }

    package func readLevel(line: Int) -> Level { levels[line] }

    /// Throws at a failure once every edge before it was delivered (and so went through the stages).
    package func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {
        if upcoming == nil, let failure { throw .inputUnreadable(reason: failure.description) }
        while let record = upcoming, record.edge.timeNs <= timeNs {
            batch.edges.append(record)
            levels[record.line] = record.edge.level
            latestNs = max(latestNs, record.edge.timeNs)
            deliveredEdges += 1
            readAhead()
        }
    }

    private func readAhead() {
        do {
            upcoming = try trace.nextLineEdge()
        } catch {
            upcoming = nil
            failure = error
        }
    }
}
