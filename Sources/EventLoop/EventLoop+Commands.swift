import Pipeline

extension EventLoop {
    /// Applies what the sinks were asked to change (`Sink.takeCommands()`, a control client's `reset`)
    /// at `nowNs`, in the sinks' order, and hands the outputs on at once; an event that reaches the
    /// run's event limit stops it, as an edge's would. Called only after a wakeup in which a sink's
    /// descriptor was ready (a request comes through one), and asks only the sinks that
    /// `takesCommands`: a run with no client pays nothing. A stopping run applies nothing (the sink
    /// answers that it is stopping).
    func applyCommands(_ state: inout RunState, atNs nowNs: Int64) throws(LoopError) {
        state.sinkWasReady = false
        guard state.stop == nil else { return }
        for sinkIndex in commandingSinks {
            let commands = sinkReferences[sinkIndex].takeCommands()
            guard !commands.isEmpty else { continue }
            for command in commands { _ = state.pipeline.apply(command, atNs: nowNs, into: &state.outputs) }
            if try dispatch(&state, nowNs: nowNs) { try beginShutdown(.eventLimit, atNs: nowNs, &state) }
        }
    }
}
