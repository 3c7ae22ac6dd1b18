import EventLoop
import LinuxSys
import Pipeline
import SystemPackage

/// A sink of the run before a reload whose work is still in flight (an action runner's running
/// commands): in the next run it takes no outputs (its tables speak of the old lines), and goes on
/// polling its descriptors, meeting its deadlines and finishing, until its work is done.
final class RetiringSink: Sink {
    /// The sink retiring, owned.
    let sink: any Sink

    init(_ sink: any Sink) {
        self.sink = sink
    }

    var consumesEdges: Bool { false }
    /// It takes no outputs; what it sends in `advance` is the retiring sink's.
    var writesOutputsAtOnce: Bool { sink.writesOutputsAtOnce }
    func consume(_ output: PipelineOutput, nowNs: Int64) {}
    var nextDeadlineNs: Int64? { sink.nextDeadlineNs }
    var isBusy: Bool { sink.isBusy }
    var descriptors: [FileDescriptor] { sink.descriptors }
    var keepsDescriptorsOpen: Bool { sink.keepsDescriptorsOpen }
    func descriptorReady(_ index: Int, events: PollEvents) { sink.descriptorReady(index, events: events) }
    func advance(toNs nowNs: Int64) throws(SinkError) { try sink.advance(toNs: nowNs) }
    func beginShutdown(atNs nowNs: Int64, graceEndNs: Int64) { sink.beginShutdown(atNs: nowNs, graceEndNs: graceEndNs) }
    func finish(atNs nowNs: Int64) throws(SinkError) { try sink.finish(atNs: nowNs) }
}
