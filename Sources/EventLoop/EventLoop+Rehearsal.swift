import DebounceCore
import Pipeline

extension EventLoop {
    /// How long the rehearsal holds every line in its toggled level, and how far it then runs on, in
    /// nanoseconds: long enough for a debounce window, a default hold and a click's window to decide.
    static let rehearsalHoldNs: Int64 = 2_000_000_000

    /// Runs a copy of `pipeline` (the run's stages as they start) through one toggle of every line's
    /// level at `nowNs` and its toggle back `rehearsalHoldNs` later, with what the stages decide up to
    /// `rehearsalHoldNs` after that, and hands each output to every sink's `rehearse`. The copy is then
    /// dropped: nothing is reported, counted or written, and the run's own stages are untouched. The
    /// source rehearses first (`EdgeSource.rehearse`: a keypad's scan).
    ///
    /// Why: the first real event would otherwise run that code for the first time (the stages, the
    /// formatting of its line), paying for the Swift runtime's first use of its types and for stack
    /// and heap pages touched for the first time; under an emulated CPU (the project's VM) it also pays
    /// for translating every instruction of that code, which made the first press several times
    /// slower than the later ones (docs/performance.md).
    func rehearse(_ pipeline: ButtonPipeline, atNs nowNs: Int64) {
        source.rehearse()
        var stages = pipeline
        var outputs: [PipelineOutput] = []
        let backNs = nowNs.adding(durationNs: Self.rehearsalHoldNs)
        for (line, level) in initialLevels.enumerated() {
            stages.receive(LineEdge(line: line, edge: Edge(level: level.toggled, timeNs: nowNs)), into: &outputs)
        }
        // `.readLevels` comes only after a suspected loss, which a copy made before the first wait has not.
        _ = stages.advance(toNs: backNs, into: &outputs)
        for (line, level) in initialLevels.enumerated() {
            stages.receive(LineEdge(line: line, edge: Edge(level: level, timeNs: backNs)), into: &outputs)
        }
        _ = stages.advance(toNs: backNs.adding(durationNs: Self.rehearsalHoldNs), into: &outputs)
        for output in outputs {
            for sink in sinks { sink.rehearse(output) }
        }
    }
}
