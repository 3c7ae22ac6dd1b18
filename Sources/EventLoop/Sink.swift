import DebounceCore
import LineInput
import LinuxSys
import Pipeline
import SystemPackage

/// Where the pipeline's outputs go: a writer, a recorder, the action runner (and later MQTT, keys).
/// Sinks are where I/O happens, at the end of the pipeline. A sink never blocks the loop: it may have
/// a deadline of its own on the loop's clock (an action's timeout), and work in flight (`isBusy`) that
/// a shutdown waits for, within the grace period.
public protocol Sink: AnyObject {
    /// The run starts at `nowNs`: `levels[line]` is each line's raw level when the loop was made (read
    /// then, and reconciled with the edges already queued: `EventLoop.readStart`), `linesPressed[line]`
    /// whether its line is pressed now, for a debounced line (`nil` for a raw line, which has no
    /// debouncer).
    func start(linesPressed: [Bool?], levels: [Level], atNs nowNs: Int64)
    /// Takes one output of the pipeline; `nowNs` is the loop's time of this wakeup. A keypad's code
    /// (`PipelineOutput.code`) comes to `consume(code:of:nowNs:)` instead.
    func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError)
    /// Takes a keypad's entered code (`source`: the keypad and its first key's line), in its output's
    /// place among the others. The code is a secret: a sink that writes or logs events writes its
    /// length only. The default does nothing.
    func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) throws(SinkError)
    /// Whether this sink has written each output by the time `consume` returns, so that nothing of an
    /// event waits for `advance` (a printer writing each line at once); the loop that yields after
    /// events then yields right after handing them over (`EventLoop.yieldsAtDispatch`). False by
    /// default: a sink that sends in `advance` (MQTT, the sockets) has its readers given the CPU after it.
    var writesOutputsAtOnce: Bool { get }
    /// Whether this sink wants `PipelineOutput.edge`, every raw edge (a recorder, a raw-edge count).
    /// When no sink of a run does, the pipeline reports none: one output fewer per edge.
    var consumesEdges: Bool { get }
    /// The time this sink next has something to do, on the loop's clock; `nil` for none.
    var nextDeadlineNs: Int64? { get }
    /// Whether work is in flight that shutting down must wait for (a running action).
    var isBusy: Bool { get }
    /// Descriptors the sink wants polled (a child's pidfd, later a socket), owned by the sink. They are
    /// polled until the run ends, also while it stops.
    var descriptors: [FileDescriptor] { get }
    /// Whether each of `descriptors` stays the same open file for as long as the sink lists it (an
    /// epoll or event descriptor made once; not a child's pidfd, closed when the child is reaped, whose
    /// number may come back for another file): the loop may then wait on them through one epoll
    /// descriptor with its other such descriptors (`EventLoop.inlinePollEntries`). False by default.
    var keepsDescriptorsOpen: Bool { get }
    /// `descriptors[index]` is ready (readable, or failed). The sink must not change its descriptors
    /// here: note it, and act in `advance`.
    func descriptorReady(_ index: Int, events: PollEvents)
    /// A chip went away or came back (`change.lines` deliver no edge while it is away); told before
    /// the outputs of the same wakeup. The default does nothing.
    func availabilityChanged(_ change: ChipAvailability, atNs nowNs: Int64)
    /// Called after every wakeup, once the outputs are consumed: time is `nowNs`.
    func advance(toNs nowNs: Int64) throws(SinkError)
    /// When this sink next wants to look at the stages (`inspect`), on the loop's clock; `nil` for
    /// never (the default). The loop does not wake for it: a sink that wants a wakeup then says so in
    /// `nextDeadlineNs`.
    var inspectionDueNs: Int64? { get }
    /// The stages as they stand at `nowNs`, after a wakeup at or past `inspectionDueNs` (each input's
    /// health, for MQTT's diagnostics). Called right after `advance(toNs:)`, never on the way of an event;
    /// and, due or not, at a report request (`SIGUSR1`) and at the stop, before `beginShutdown`.
    func inspect(_ pipeline: ButtonPipeline, atNs nowNs: Int64)
    /// Whether this sink may hand the stages commands (`takeCommands`); read once, when the loop is
    /// made. False by default.
    var takesCommands: Bool { get }
    /// The changes of the stages this sink was asked for since the last call (a control client's
    /// `reset`), taken once each. The loop asks a sink that `takesCommands` after each wakeup's edges
    /// are through the pipeline, unless stopping, and applies them at once
    /// (`ButtonPipeline.apply(_:atNs:into:)`): their outputs go to every sink, this one included, before
    /// `advance(toNs:)`. Empty by default.
    func takeCommands() -> [PipelineCommand]
    /// Runs the code `consume` runs for `output` (its formatting), with no effect: nothing is written,
    /// sent, run or counted. A live loop calls it before its first wait with the outputs of a
    /// rehearsal (`EventLoop.rehearse`), so that the first real event does not pay for that code's first
    /// run. The default does nothing.
    func rehearse(_ output: PipelineOutput)
    /// The run is stopping: no more outputs will come. Work in flight may go on until `graceEndNs`.
    func beginShutdown(atNs nowNs: Int64, graceEndNs: Int64)
    /// The run ends now (the grace period is over, or nothing is in flight): stop what still runs, flush.
    func finish(atNs nowNs: Int64) throws(SinkError)
}

extension Sink {
    public func start(linesPressed: [Bool?], levels: [Level], atNs nowNs: Int64) {}
    public func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) throws(SinkError) {}
    public var consumesEdges: Bool { true }
    public var writesOutputsAtOnce: Bool { false }
    public var nextDeadlineNs: Int64? { nil }
    public var isBusy: Bool { false }
    public var descriptors: [FileDescriptor] { [] }
    public var keepsDescriptorsOpen: Bool { false }
    public func descriptorReady(_ index: Int, events: PollEvents) {}
    public func availabilityChanged(_ change: ChipAvailability, atNs nowNs: Int64) {}
    public func advance(toNs nowNs: Int64) throws(SinkError) {}
    public var inspectionDueNs: Int64? { nil }
    public func inspect(_ pipeline: ButtonPipeline, atNs nowNs: Int64) {}
    public var takesCommands: Bool { false }
    public func takeCommands() -> [PipelineCommand] { [] }
    public func rehearse(_ output: PipelineOutput) {}
    public func beginShutdown(atNs nowNs: Int64, graceEndNs: Int64) {}
    public func finish(atNs nowNs: Int64) throws(SinkError) {}
}

/// A sink that hands every output to a closure (the library's `ButtonSet`, tests).
package final class CallbackSink: Sink {
    private let body: (PipelineOutput) -> Void
    private let codeBody: (OutputSource, EnteredCode) -> Void

    /// A sink handing each output to `body`, and each keypad's code, with its keypad, to `code`.
    package init(code: @escaping (OutputSource, EnteredCode) -> Void = { _, _ in }, _ body: @escaping (PipelineOutput) -> Void) {
        self.body = body
        self.codeBody = code
    }

    /// Events only.
    package var consumesEdges: Bool { false }
    /// `body` has taken each output when `consume` returns.
    package var writesOutputsAtOnce: Bool { true }

    package func consume(_ output: PipelineOutput, nowNs: Int64) {
        body(output)
    }

    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) {
        codeBody(source, code)
    }
}
