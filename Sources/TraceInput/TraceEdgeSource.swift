import DebounceCore
import LineInput
import TraceFormat

/// A recorded trace of `lineCount` lines (one button's line, or an encoder's A and B) as the run's
/// `EdgeSource`, for a run in virtual time (`RunAssembly.trace`): each edge is due at its own
/// timestamp, so the loop wakes at every edge and at every stage's deadline in between, exactly as it
/// does for live lines; edges with one timestamp arrive in one batch (one observation). The trace is
/// read ahead by at most `readAheadRecords` records, and only by those already read in
/// (`TraceLinesSource.readRecords`): bounded memory, any length, and a trace written into a pipe as it
/// happens is followed record by record.
///
/// Every line's initial level is read first: a trace must give each line's before any edge
/// (`TraceError.noInitialLevel` otherwise). At the end of the trace the run ends (`endsAtLastEdge`):
/// decisions still pending are made as if time ran on, and nothing is timed past the last edge (a
/// trace does not say how long a button stayed down). A trace that cannot be read on (a malformed
/// line, a failed read) ends the run at the last good edge with `LineError.inputUnreadable`; `failure`
/// then holds the `TraceError`.
package final class TraceEdgeSource: EdgeSource {
    package let lineCount: Int
    /// The first initial level's timestamp, in nanoseconds: where the run's virtual clock starts.
    package let startNs: Int64
    // Unchecked for exclusive access: only the loop's thread touches the source, one call at a time
    // (no dynamic exclusivity check on each edge).
    /// Edges delivered so far (not the initial levels).
    @exclusivity(unchecked) package private(set) var deliveredEdges = 0
    /// Why the trace could not be read to its end, if it could not.
    @exclusivity(unchecked) package private(set) var failure: TraceError?

    /// The most records read ahead of the loop.
    package static let readAheadRecords = 256

    private let trace: any TraceLinesSource
    /// Each line's level after its latest delivered edge, in memory of the source's own (allocated in
    /// `init`, freed in `deinit`, as is `readAhead`): written on every edge without an array's
    /// uniqueness check.
    private let levels: UnsafeMutableBufferPointer<Level>
    /// Records read and not delivered yet: `readAhead[nextRecord..<readCount]`. Empty only at the end
    /// or at a failure.
    private let readAhead: UnsafeMutableBufferPointer<(line: Int, edge: Edge)>
    @exclusivity(unchecked) private var nextRecord = 0
    @exclusivity(unchecked) private var readCount = 0
    /// The latest delivered edge's time (or the first initial level's), in nanoseconds.
    @exclusivity(unchecked) private var latestNs: Int64

    /// Reads every line's initial level and the first edges after them. Throws `TraceError.noData`
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
        self.levels = .allocate(capacity: initial.count)
        _ = levels.initialize(from: initial.map { $0 ?? .high })
        self.readAhead = .allocate(capacity: Self.readAheadRecords)
        self.latestNs = first.edge.timeNs
        readOn()
    }

    deinit {
        levels.deallocate()
        readAhead.deallocate()
    }

    package var endsAtLastEdge: Bool { true }

    /// The next edge's time; at a failure, the latest edge's (due at once, to report it). Stored,
    /// renewed whenever it changes: the loop asks for it before every edge.
    @exclusivity(unchecked) package private(set) var nextDueNs: Int64?

    package var isExhausted: Bool { nextRecord == readCount && failure == nil }

    package func readLevel(line: Int) -> Level { levels[line] }

    /// Throws at a failure once every edge before it was delivered (and so went through the stages).
    package func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {
        if nextRecord == readCount, let failure { throw .inputUnreadable(reason: failure.description) }
        while nextRecord < readCount {
            let record = readAhead[nextRecord]
            guard record.edge.timeNs <= timeNs else { return }
            batch.edges.append(LineEdge(line: record.line, edge: record.edge))
            levels[record.line] = record.edge.level
            latestNs = max(latestNs, record.edge.timeNs)
            deliveredEdges += 1
            nextRecord += 1
            if nextRecord == readCount {
                readOn()
            } else {
                nextDueNs = readAhead[nextRecord].edge.timeNs
            }
        }
    }

    /// Reads the next records once every one read before was delivered.
    private func readOn() {
        nextRecord = 0
        do {
            readCount = try trace.readRecords(into: readAhead)
        } catch {
            readCount = 0
            failure = error
        }
        nextDueNs = readCount > 0 ? readAhead[0].edge.timeNs : (failure == nil ? nil : latestNs)
    }
}
