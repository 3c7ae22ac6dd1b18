import DebounceCore
import LineInput
import LinuxSys
import Pipeline
import SystemPackage

/// The one event loop of every run (watch, record, run, demo, replay, the library's `Button`): it owns the
/// run's descriptors (the source's line requests, the signal descriptor or the stop switch, the sinks'
/// descriptors such as running actions' pidfds), its one
/// clock, and the earliest deadline of every stage and sink, and it is the only place that blocks, in
/// one `ppoll` with that deadline as the timeout (nothing at all while everything is settled).
///
/// Each wakeup: signals are taken; the source's ready descriptors are read once each (and a
/// simulated line's due edges taken); the edges go through the `ButtonPipeline`, whose outputs go to
/// every sink in order; then the sinks advance. Lines are read again only when the source showed
/// evidence of lost events (see `ButtonPipeline`).
///
/// Stopping (a signal, the stop switch, the event limit, the idle timeout, the duration, the end of
/// the input): the loop stops taking edges, tells the sinks, and goes on polling only for them until
/// none is busy or the grace period is over, a second signal ending it at once; then the sinks finish.
///
/// SIGHUP (when the signal descriptor watches it) makes `run` return `.reloadRequested` once the
/// wakeup that took it has handed its edges on, stopping nothing: the lines stay requested (edges
/// queue in the kernel meanwhile), the sinks are not finished, and `run` may be called again to go on.
///
/// Before its first wait, a live loop (a real clock) rehearses an event's way through a copy of the
/// stages and the sinks' formatting (`rehearse`), so that the first real edge does not pay for that
/// code's first run.
public final class EventLoop {
    /// The run's clock: real time (monotonic, ns) or a simulation's virtual time.
    package let clock: LoopClock
    /// The edges' source, owned by the loop: its lines are released when the loop goes away.
    package let source: any EdgeSource
    /// The stages, readable after the run for statistics.
    package private(set) var pipeline: ButtonPipeline
    let sinks: [any Sink]
    /// `sinks`, in memory of the loop's own (allocated in `init`, freed in `deinit`), for `dispatch`.
    let sinkReferences: UnsafeMutableBufferPointer<any Sink>
    /// The indices of the sinks that may hand the stages commands (`Sink.takesCommands`), asked once.
    let commandingSinks: [Int]
    let signals: SignalDescriptor?
    let stopSwitch: StopSwitch?
    let limits: LoopLimits
    /// Whether the loop hands over the CPU once after a wakeup that reported events (see `init`).
    package let yieldsAfterEvents: Bool
    /// With `yieldsAfterEvents`, whether the hand-over comes right after the events went to the sinks
    /// (every sink has written each output when `consume` returns: `Sink.writesOutputsAtOnce`) rather
    /// than after the sinks' `advance`, where a sink that sends in it (MQTT, the sockets) has.
    package let yieldsAtDispatch: Bool
    /// Each line's level at the start, what the stages began with (`readStart`): the rehearsal toggles it.
    let initialLevels: [Level]
    /// The edges already queued when the levels were read, taken before the first wait (`readStart`).
    var queuedAtStart: EdgeBatch
    /// When the stages started (`StartLevels.startNs`).
    let stagesStartNs: Int64
    /// Whether the loop has rehearsed (`rehearse`): once, before the first wait of its first live run.
    private var hasRehearsed = false
    /// Whether the sinks were told of the start (`Sink.start`): by the first run only, not after a refused reload.
    private var hasStartedSinks = false
    /// Lines whose state the sinks know already (a reload kept them: `ButtonPipeline.carry`): the
    /// start tells the sinks nothing of them (`nil` in `linesPressed`), so that no state is announced twice.
    package var linesCarriedOver: Set<Int> = []

    /// What a report request (`SIGUSR1`, when the signal descriptor watches `.report`) calls, with the
    /// stages as they stand and the loop's time; the run goes on. The request also hands the stages to
    /// every sink that inspects them (`Sink.inspect`: MQTT publishes the health then).
    /// Set before a run, read only by it: `@exclusivity(unchecked)` (a runtime check costs ~60 instructions a wakeup).
    @exclusivity(unchecked) package var reportRequested: ((_ pipeline: ButtonPipeline, _ nowNs: Int64) -> Void)?

    /// Wakeups so far (returns from the wait, or jumps of virtual time): the zero-wakeups-while-idle promise.
    public private(set) var wakeups = 0
    /// Events reported so far.
    public private(set) var reportedEvents = 0
    /// Times the loop handed over the CPU after reporting events (`yieldsAfterEvents`), counted as it
    /// happens (a sink may read it). Changed by the run only: `@exclusivity(unchecked)`.
    @exclusivity(unchecked) package private(set) var yields = 0

    enum Token: Hashable, Sendable {
        case signals, stopSwitch
        case source(Int), sink(Int, Int)
        /// The epoll descriptor of `RunState.rarelyReady`, polled in place of the descriptors it watches.
        case rarelyReady
    }

    /// What one run mutates, kept in a local value while it runs and written back when it returns.
    /// No closure captures it (the helpers take it `inout`), so the hot path has no dynamic exclusivity
    /// check at all, neither on class properties nor on captured variables.
    struct RunState {
        var pipeline: ButtonPipeline
        /// Why the run is stopping, once it is.
        var stop: StopReason?
        /// SIGHUP came (and the run is not stopping): `run` returns `.reloadRequested` after this wakeup.
        var reloadRequested = false
        /// A sink's descriptor was ready in this wakeup: only then may a sink have commands (`applyCommands`).
        var sinkWasReady = false
        /// When a stopping run stops waiting for its sinks' work in flight.
        var graceEndNs = Int64.max
        var pollSet = PollSet<Token>()
        /// The source's descriptors alone (each by its index), for the look at edges that came after a
        /// wait returned (`catchUp`); rebuilt with `pollSet`.
        var sourcePollSet = PollSet<Int>()
        /// The rarely ready descriptors, when `pollSet` waits on them through one (`rebuildPollSet`).
        var rarelyReady = RarelyReadyDescriptors<Token>()
        /// What `pollSet` was built from: rebuilt only when one of these changes (most wakeups, none does).
        var polledWhileStopping: Bool?
        var polledSourceDescriptors: [FileDescriptor] = []
        var polledSinkDescriptors: [[FileDescriptor]] = []
        var batch = EdgeBatch()
        var outputs: [PipelineOutput] = []
        var lastActivityNs: Int64
        var wakeups = 0
        /// `reportedEvents` at the last hand-over of the CPU (`handOverOnceWritten`).
        var eventsAtHandOver = 0
        /// Events reported, this run and the runs before it.
        var reportedEvents = 0

        init(pipeline: ButtonPipeline, startNs: Int64) {
            self.pipeline = pipeline
            self.lastActivityNs = startNs
            outputs.reserveCapacity(256)
        }
    }

    /// A loop over `source`'s lines through the pipeline `plan` describes (one line plan per line, or one
    /// for every line).
    /// Reads each line's initial level now, with the edges already queued (`readStart`).
    /// `signals` (the CLI) or `stopSwitch` (the library) stop the run.
    ///
    /// `yieldsAfterEvents`: after a wakeup that reported events, as soon as every sink has written them,
    /// the loop calls `sched_yield`, so that whoever reads the events (a pipe's reader, the MQTT broker,
    /// an evdev client) runs before the rest of the wakeup and the loop's next wait. When every sink
    /// writes each output as it takes it (a printer: `Sink.writesOutputsAtOnce`), that is right after
    /// the events went to the sinks, before the clock is read again; otherwise after the sinks'
    /// `advance`. It matters only where that reader shares the loop's CPU: by default it is on when
    /// this process may run on one CPU only (a Raspberry Pi Zero or 1, a pinned service) and its clock
    /// is real, and off otherwise (a yield with an idle CPU beside it only costs a system call).
    package init(
        clock: LoopClock, source: any EdgeSource, plan: PipelinePlan, sinks: [any Sink],
        signals: SignalDescriptor? = nil, stopSwitch: StopSwitch? = nil, limits: LoopLimits = LoopLimits(),
        yieldsAfterEvents: Bool? = nil
    ) throws(LineError) {
        precondition(plan.fits(lineCount: source.lineCount), "one plan per line, or one for all")
        self.clock = clock
        self.source = source
        self.sinks = sinks
        commandingSinks = sinks.indices.filter { sinks[$0].takesCommands }
        self.signals = signals
        self.stopSwitch = stopSwitch
        self.limits = limits
        self.yieldsAfterEvents = yieldsAfterEvents ?? (!clock.isVirtual && Processor.allowedCount == 1)
        yieldsAtDispatch = self.yieldsAfterEvents && sinks.allSatisfy(\.writesOutputsAtOnce)
        let start = try Self.readStart(source: source, clock: clock)
        initialLevels = start.levels.levels
        queuedAtStart = start.queued
        stagesStartNs = start.levels.startNs
        sinkReferences = .allocate(capacity: sinks.count)  // once nothing can throw: `deinit` frees it
        _ = sinkReferences.initialize(from: sinks)
        pipeline = ButtonPipeline(
            plan: plan, lineCount: source.lineCount, initialLevels: start.levels.levels, atNs: start.levels.startNs,
            reportsEdges: sinks.contains { $0.consumesEdges })
    }

    /// Takes over the state of the lines a reload kept from `previous`, the last loop's pipeline (see
    /// `ButtonPipeline.carry`), before the first run.
    package func carry(from previous: ButtonPipeline, previousLine: [Int?], previousInput: [Int?], suspecting: Set<Int>) {
        pipeline.carry(from: previous, previousLine: previousLine, previousInput: previousInput, suspecting: suspecting)
    }

    deinit {
        sinkReferences.deinitialize()
        sinkReferences.deallocate()
    }

    /// Runs until a stop; see the type's documentation. Throws when a line, a sink or the loop's own
    /// system call fails (after finishing the sinks as well as it can).
    package func run() throws(LoopError) -> StopReason {
        let startNs = clock.nowNs
        // A local reference for the whole run: no reference counting around each read of the source.
        let source = self.source
        var state = RunState(pipeline: pipeline, startNs: startNs)
        state.reportedEvents = reportedEvents
        state.eventsAtHandOver = reportedEvents
        if !hasStartedSinks {
            hasStartedSinks = true
            let linesPressed = (0..<pipeline.lineCount).map { linesCarriedOver.contains($0) ? nil : pipeline.isActive(line: $0) }
            // The states held from the stages' start (before an edge queued at the start).
            for sink in sinks { sink.start(linesPressed: linesPressed, levels: initialLevels, atNs: min(startNs, stagesStartNs)) }
        }
        if !clock.isVirtual, !hasRehearsed {
            hasRehearsed = true
            rehearse(state.pipeline, atNs: startNs)
        }
        defer {
            pipeline = state.pipeline
            wakeups += state.wakeups
            reportedEvents = state.reportedEvents
        }

        do throws(LoopError) {
            if try takeQueuedAtStart(&state) { try beginShutdown(.eventLimit, atNs: clock.nowNs, &state) }
            while true {
                // A reload: the wakeup that took SIGHUP has handed its edges on; nothing is stopped.
                if state.reloadRequested { return .reloadRequested }
                let nowNs = clock.nowNs
                if state.stop != nil {
                    if nowNs >= state.graceEndNs || !sinks.contains(where: \.isBusy) { break }
                } else if source.isExhausted, source.endsAtLastEdge || state.pipeline.nextDecisionDeadlineNs == nil {
                    if source.endsAtLastEdge {
                        state.pipeline.finish(into: &state.outputs)
                        try dispatch(&state, nowNs: nowNs)
                    }
                    try beginShutdown(.endOfInput, atNs: nowNs, &state)
                    continue
                }
                // `state` in place (inout): passed by value, the whole run state was copied twice a wakeup
                // (a memcpy each, and a retain and a release of each of its arrays).
                let deadlineNs = earliestDeadline(&state, source: source, startNs: startNs)
                if !pollSetIsCurrent(&state) { rebuildPollSet(&state) }
                if state.pollSet.isEmpty, deadlineNs == nil {
                    // Nothing can ever wake this run: it has ended.
                    if state.stop == nil { try beginShutdown(.endOfInput, atNs: nowNs, &state) }
                    break
                }
                try wait(&state.pollSet, until: deadlineNs, nowNs: nowNs)
                state.wakeups += 1
                try readReady(&state, source: source)
                // Read once the edges are out: no clock read delays an event.
                let wokeNs = state.stop == nil ? try processWakeup(&state, source: source, startNs: startNs) : clock.nowNs
                if state.sinkWasReady { try applyCommands(&state, atNs: wokeNs) }
                for sink in sinks {
                    do throws(SinkError) { try sink.advance(toNs: wokeNs) } catch { throw LoopError.sink(error) }
                    if let dueNs = sink.inspectionDueNs, dueNs <= wokeNs { sink.inspect(state.pipeline, atNs: wokeNs) }
                }
                // Emptied here, after the wakeup's events are out, not before its read.
                state.batch.removeAll()
                // Every sink has written this wakeup's events (unless it did at the dispatch already).
                if yieldsAfterEvents { handOverOnceWritten(&state) }
            }
        } catch {
            finishSinks()
            throw error
        }
        let endNs = clock.nowNs
        for sink in sinks {
            do { try sink.finish(atNs: endNs) } catch { throw LoopError.sink(error) }
        }
        return state.stop ?? .endOfInput
    }

    // The steps of one wakeup, in `run`'s order. Each is inlined into `run`: a call of its own on the
    // path from the wakeup to the events' write costs an emulated CPU a lookup after each context switch
    // (docs/performance.md), and the steps are named for reading, not for reuse.

    /// The earliest deadline of everything still running: the sinks', and unless stopping, the
    /// pipeline's, the source's next due edge, the idle timeout (once everything is settled) and the
    /// run's duration; stopping, the end of the grace period. `nil`: nothing but a descriptor can wake it.
    @inline(__always)
    private func earliestDeadline(_ state: inout RunState, source: any EdgeSource, startNs: Int64) -> Int64? {
        var deadlineNs: Int64? = state.stop == nil || state.graceEndNs == .max ? nil : state.graceEndNs
        for sink in sinks { deadlineNs = Self.earlier(deadlineNs, sink.nextDeadlineNs) }
        if state.stop == nil {
            let pipelineDeadlineNs = state.pipeline.nextDeadlineNs
            deadlineNs = Self.earlier(deadlineNs, pipelineDeadlineNs)
            deadlineNs = Self.earlier(deadlineNs, source.nextDueNs)
            // The idle timeout counts only once everything is settled (then its time may be past); a
            // counter's falling rate is no activity.
            if limits.idleTimeoutNs != nil, state.pipeline.nextDecisionDeadlineNs == nil {
                deadlineNs = Self.earlier(deadlineNs, limits.idleTimeoutNs.map { state.lastActivityNs.adding(durationNs: $0) })
            }
            deadlineNs = Self.earlier(deadlineNs, limits.durationNs.map { startNs.adding(durationNs: $0) })
        }
        return deadlineNs
    }

    /// The hot path: what was read goes through the pipeline up to the latest edge's own (kernel) time
    /// and out to the sinks before anything else, the clock included; then the source's due edges and
    /// the stages' due decisions, by the clock (with the edges that came since the wait returned:
    /// `catchUp`); then the limits. Returns the clock's time after the edges were out.
    @inline(__always)
    private func processWakeup(_ state: inout RunState, source: any EdgeSource, startNs: Int64) throws(LoopError) -> Int64 {
        var limitReached = false
        if !state.batch.availability.isEmpty { announceAvailability(state.batch.availability) }
        if let latestEdgeNs = state.batch.edges.lazy.map(\.edge.timeNs).max() {
            limitReached = try process(&state, upToNs: latestEdgeNs)
        } else if !state.batch.losses.isEmpty {
            // Lines to read again with no edge (a chip that came back): by the clock.
            limitReached = try process(&state, upToNs: clock.nowNs)
        }
        // The events' readers first, before the clock is read (each sink has written them).
        if yieldsAtDispatch { handOverOnceWritten(&state) }
        var wokeNs = clock.nowNs
        if !limitReached {
            state.batch.removeAll()
            do throws(LineError) { try source.deliverDue(byNs: wokeNs, into: &state.batch) } catch { throw LoopError.line(error) }
            // Only when something is due by now: an edge came due, or a stage's deadline came. (After an
            // eager event nothing is: the wakeup ends at once, and a pipe's reader waiting for the event
            // line gets the processor sooner.)
            let deadlineCame = state.pipeline.nextDeadlineNs.map { $0 <= wokeNs } ?? false
            if deadlineCame, !state.sourcePollSet.isEmpty { try catchUp(&state, source: source) }
            if !state.batch.availability.isEmpty { announceAvailability(state.batch.availability) }
            if deadlineCame || !state.batch.edges.isEmpty || !state.batch.losses.isEmpty {
                limitReached = try process(&state, upToNs: wokeNs)
                if yieldsAtDispatch { handOverOnceWritten(&state) }
            }
            if clock.isVirtual {
                limitReached = try deliverAhead(&state, source: source, startNs: startNs, limitReached: limitReached)
                wokeNs = clock.nowNs
            }
        }
        if limitReached {
            try beginShutdown(.eventLimit, atNs: wokeNs, &state)
        } else if let durationNs = limits.durationNs, wokeNs >= startNs.adding(durationNs: durationNs) {
            try beginShutdown(.duration, atNs: wokeNs, &state)
        } else if let idleNs = limits.idleTimeoutNs, wokeNs >= state.lastActivityNs.adding(durationNs: idleNs),
            state.pipeline.nextDecisionDeadlineNs == nil
        {
            try beginShutdown(.idleTimeout, atNs: wokeNs, &state)
        }
        return wokeNs
    }

    /// Hands over the CPU (`sched_yield`) if events were reported since the last hand-over: their
    /// readers run before the loop goes on (`yieldsAfterEvents`). The caller knows every sink has
    /// written them.
    @inline(__always)
    private func handOverOnceWritten(_ state: inout RunState) {
        guard state.reportedEvents != state.eventsAtHandOver else { return }
        state.eventsAtHandOver = state.reportedEvents
        Processor.yield()
        yields += 1
    }

    /// Starts stopping for `reason` (the first reason only): a raw line that lost edges is read once
    /// more, so that a recording ends at the true level; the sinks are told, and get the grace period.
    func beginShutdown(_ reason: StopReason, atNs nowNs: Int64, _ state: inout RunState) throws(LoopError) {
        guard state.stop == nil else { return }
        state.stop = reason
        if case .readLevels(var request) = state.pipeline.stop(atNs: nowNs) {
            try request.read { line throws(LoopError) in try readLevel(line) }
            state.pipeline.resume(request, into: &state.outputs)
        }
        try dispatch(&state, nowNs: nowNs)
        state.graceEndNs = nowNs.adding(durationNs: limits.shutdownGraceNs)
        inspectSinks(state.pipeline, atNs: nowNs)  // the last counts, before the sinks stop
        for sink in sinks { sink.beginShutdown(atNs: nowNs, graceEndNs: state.graceEndNs) }
    }

    /// Hands the stages to every sink that inspects them (`Sink.inspectionDueNs` not `nil`), due or
    /// not: at a report request and at the stop.
    func inspectSinks(_ pipeline: ButtonPipeline, atNs nowNs: Int64) {
        for sink in sinks where sink.inspectionDueNs != nil { sink.inspect(pipeline, atNs: nowNs) }
    }

    /// A signal or the stop switch: stop, or, when already stopping, stop waiting for work in flight.
    func stopRequested(_ reason: StopReason, _ state: inout RunState) throws(LoopError) {
        let signalNs = clock.nowNs
        if state.stop == nil {
            try beginShutdown(reason, atNs: signalNs, &state)
        } else {
            state.graceEndNs = signalNs  // a second signal: stop waiting for actions
        }
    }

    func readLevel(_ line: Int) throws(LoopError) -> Level {
        do { return try source.readLevel(line: line) } catch { throw LoopError.line(error) }
    }

    /// After a failure: let the sinks stop what runs and flush what they can; their own errors are
    /// secondary to the one being thrown.
    private func finishSinks() {
        let nowNs = clock.nowNs
        for sink in sinks {
            sink.beginShutdown(atNs: nowNs, graceEndNs: nowNs)
            try? sink.finish(atNs: nowNs)
        }
    }
}
