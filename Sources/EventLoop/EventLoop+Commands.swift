import Pipeline

extension EventLoop {
    /// Applies what the sinks were asked to change (`Sink.takeCommands()`, a control client's `reset`)
    /// at `nowNs`, in the sinks' order, and hands the outputs on at once; an event that reaches the
    /// run's event limit stops it, as an edge's would. A run with no sink that takes commands (all but
    /// a daemon's with its control socket) pays one test of an empty array a wakeup.
    @inline(__always)
    func applyCommands(_ state: inout RunState, atNs nowNs: Int64) throws(LoopError) {
        for sinkIndex in commandingSinks {
            let commands = sinkReferences[sinkIndex].takeCommands()
            guard !commands.isEmpty else { continue }
            for command in commands { _ = state.pipeline.apply(command, atNs: nowNs, into: &state.outputs) }
            if try dispatch(&state, nowNs: nowNs) { try beginShutdown(.eventLimit, atNs: nowNs, &state) }
        }
    }
}
