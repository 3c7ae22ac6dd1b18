import DebounceCore
import LineInput
import Pipeline

/// A run in virtual time takes a source's edges that come before every other deadline one after
/// another, in one wakeup: the same jumps, deliveries and processing as a wakeup per edge, without the
/// waits between them (a recorded trace of millions of edges replays at the speed of the pipeline).
extension EventLoop {
    /// Virtual time: the source's next edges, each at its own time, for as long as each comes before
    /// (or with) every other deadline: exactly what a wakeup per edge would do (the same jump, delivery
    /// and processing), without the wait, the poll and the sinks' `advance` in between, which have
    /// nothing to do there. At most `virtualEdgesPerWakeup` instants, so that the stop switch and
    /// signals are still looked at. Returns whether the event limit was reached.
    @inline(__always)
    func deliverAhead(_ state: inout RunState, source: any EdgeSource, startNs: Int64, limitReached: Bool) throws(LoopError) -> Bool {
        guard !limitReached, source.nextDueNs != nil else { return limitReached }
        // Every deadline but the source's and the stages': read again after an event (a contact's
        // change and a pulse count as events; a sink's deadline may then change). The idle timeout's only moves later as edges
        // come, so an old value is safe.
        var othersNs = otherDeadline(&state, startNs: startNs)
        var instants = 0
        // The batch keeps these instants' edges, each instant processing the ones it appended; they
        // are removed at once at the end, not edge by edge.
        defer { if !state.batch.edges.isEmpty { state.batch.edges.removeAll(keepingCapacity: true) } }
        while instants < Self.virtualEdgesPerWakeup, let dueNs = source.nextDueNs, dueNs <= othersNs,
            state.stop == nil, dueNs <= state.pipeline.nextDeadlineNs ?? .max
        {
            clock.jump(toNs: dueNs)
            state.wakeups += 1
            instants += 1
            state.batch.losses.removeAllFromEnd()
            let firstEdge = state.batch.edges.count
            do throws(LineError) { try source.deliverDue(byNs: dueNs, into: &state.batch) } catch { throw LoopError.line(error) }
            if !state.batch.availability.isEmpty {
                announceAvailability(state.batch.availability)
                state.batch.availability.removeAll(keepingCapacity: true)
            }
            let eventsBefore = state.reportedEvents
            if try process(&state, upToNs: dueNs, edgesFrom: firstEdge) { return true }
            if state.reportedEvents != eventsBefore { othersNs = otherDeadline(&state, startNs: startNs) }
        }
        return false
    }

    /// The earliest deadline of the sinks and the limits (not the stages', not the source's): `.max` for none.
    func otherDeadline(_ state: inout RunState, startNs: Int64) -> Int64 {
        var deadlineNs: Int64? = nil
        for sink in sinks { deadlineNs = Self.earlier(deadlineNs, sink.nextDeadlineNs) }
        if limits.idleTimeoutNs != nil, state.pipeline.nextDecisionDeadlineNs == nil {
            deadlineNs = Self.earlier(deadlineNs, limits.idleTimeoutNs.map { state.lastActivityNs.adding(durationNs: $0) })
        }
        deadlineNs = Self.earlier(deadlineNs, limits.durationNs.map { startNs.adding(durationNs: $0) })
        return deadlineNs ?? .max
    }

    /// The most instants `deliverAhead` takes in one wakeup.
    static let virtualEdgesPerWakeup = 256
}
