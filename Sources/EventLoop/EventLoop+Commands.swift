import Pipeline

extension EventLoop {
    /// Applies what the sinks were asked to change (`Sink.takeCommands()`, a control client's `reset`)
    /// at `nowNs`, in the sinks' order, and hands the outputs on at once; an event that reaches the
    /// run's event limit stops it, as an edge's would. Nothing to do costs one call a sink.
    @inline(__always)
    func applyCommands(_ state: inout RunState, atNs nowNs: Int64) throws(LoopError) {
        for sinkIndex in sinkReferences.indices {
            let commands = sinkReferences[sinkIndex].takeCommands()
            guard !commands.isEmpty else { continue }
            for command in commands { _ = state.pipeline.apply(command, atNs: nowNs, into: &state.outputs) }
            if try dispatch(&state, nowNs: nowNs) { try beginShutdown(.eventLimit, atNs: nowNs, &state) }
        }
    }
}
