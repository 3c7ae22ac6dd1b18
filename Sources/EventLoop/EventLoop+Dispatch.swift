import DebounceCore
import LineInput
import Pipeline

/// A wakeup's edges through the stages, and their outputs to the sinks.
extension EventLoop {
    /// Runs what `batch` holds through the pipeline up to `timeNs` (every edge up to it must be in the
    /// batch or delivered before): losses, edges (from `edgesFrom` on: the ones before went through
    /// already), the level reads they call for, the decisions due; then hands the outputs to the sinks.
    /// Returns whether the event limit was reached.
    @inline(__always)
    func process(_ state: inout RunState, upToNs timeNs: Int64, edgesFrom firstEdge: Int = 0) throws(LoopError) -> Bool {
        for loss in state.batch.losses {
            state.outputs.append(.loss(line: loss.line, count: loss.count, atNs: timeNs))
            state.pipeline.suspectLoss(line: loss.line, count: loss.count)
        }
        for index in firstEdge..<state.batch.edges.count {
            let lineEdge = state.batch.edges[index]
            state.lastActivityNs = max(state.lastActivityNs, lineEdge.edge.timeNs)
            state.pipeline.receive(lineEdge, into: &state.outputs)
        }
        // Only when a line may have lost edges (most wakeups, none has) does the pipeline ask for
        // levels first: they are read, and the answer makes the step.
        if case .readLevels(var request) = state.pipeline.advance(toNs: timeNs, into: &state.outputs) {
            try request.read { line throws(LoopError) in try readLevel(line) }
            state.pipeline.resume(request, into: &state.outputs)
        }
        // Most edges decide nothing: no call to hand nothing over.
        if state.outputs.isEmpty { return false }
        return try dispatch(&state, nowNs: timeNs)
    }

    /// Hands the collected outputs to every sink, in order; whether the event limit was reached (no event after it is reported).
    @discardableResult
    func dispatch(_ state: inout RunState, nowNs: Int64) throws(LoopError) -> Bool {
        defer { state.outputs.removeAllFromEnd(); if !state.pipeline.enteredCodes.isEmpty { state.pipeline.removeEnteredCodes() } }
        var limitReached = false
        var reportedEvents = state.reportedEvents
        defer { state.reportedEvents = reportedEvents }
        // Each output read in place, borrowed from the array's storage. Every case is plain values (a
        // code's text is in the pipeline, `CodeMark`), so an output is never reference counted.
        try state.outputs.withUnsafeBufferPointer { outputs throws(LoopError) in
            for index in outputs.indices {
                if outputs[index].countsAsEvent {
                    if limitReached { continue }
                    reportedEvents += 1
                    if reportedEvents == limits.maximumEvents { limitReached = true }
                }
                if case .code(let source, let mark) = outputs[index] {
                    guard let entered = state.pipeline.enteredCode(mark) else { continue }
                    for sinkIndex in sinkReferences.indices {
                        do throws(SinkError) { try sinkReferences[sinkIndex].consume(code: entered, of: source, nowNs: nowNs) } catch { throw LoopError.sink(error) }
                    }
                    continue
                }
                // Through the loop's own copy of the sinks' references: an element of `sinks` read for the
                // call would be retained and released around it, for every output and sink.
                for sinkIndex in sinkReferences.indices {
                    do throws(SinkError) { try sinkReferences[sinkIndex].consume(outputs[index], nowNs: nowNs) } catch { throw LoopError.sink(error) }
                }
            }
        }
        return limitReached
    }
}
