import DebounceCore
import EventLoop
import LineInput
import Pipeline

/// A whole run of simulated lines in virtual time, through the same `EventLoop` and pipeline as every
/// other mode, with every output kept: for tests, and for tools that want the events of a script at once.
package struct VirtualRun {
    /// Every output of the pipeline, in the order the sinks got them; an entered code's mark (`.code`)
    /// names its index in `codes`.
    package var outputs: [PipelineOutput]
    /// Every entered code (`Sink.consume(code:of:nowNs:)`), with its input (`OutputSource.input`).
    package var codes: [(input: Int, code: EnteredCode)]
    package var stop: StopReason
    /// The loop after the run: its pipeline's statistics, its wakeups, its source.
    package var loop: EventLoop

    /// The debounced events (and gestures), with their lines.
    package var events: [(line: Int, event: ButtonEvent)] {
        outputs.compactMap { if case .event(let source, let event) = $0 { (source.lineIndex, event) } else { nil } }
    }

    /// Plays `lines` (simulated lines, a simulated matrix) through the pipeline `plan` describes, with
    /// `sinks` after the collector, until the scripts end (or a limit stops the run).
    package static func play(_ lines: any EdgeSource, plan: PipelinePlan, sinks: [any Sink] = [], limits: LoopLimits = LoopLimits()) throws -> VirtualRun {
        let collector = Collector()
        let loop = try EventLoop(clock: .virtual(), source: lines, plan: plan, sinks: [collector] + sinks, limits: limits)
        let stop = try loop.run()
        return VirtualRun(outputs: collector.outputs, codes: collector.codes, stop: stop, loop: loop)
    }

    /// Plays `lines` through `plans` alone (one for every line, or one each).
    package static func play(_ lines: any EdgeSource, plans: [LinePlan], sinks: [any Sink] = [], limits: LoopLimits = LoopLimits()) throws -> VirtualRun {
        try play(lines, plan: PipelinePlan(lines: plans), sinks: sinks, limits: limits)
    }

    private final class Collector: Sink {
        var outputs: [PipelineOutput] = []
        var codes: [(input: Int, code: EnteredCode)] = []
        func consume(_ output: PipelineOutput, nowNs: Int64) { outputs.append(output) }
        func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) {
            outputs.append(.code(source, CodeMark(index: codes.count, length: code.code.count, timeNs: code.timeNs)))
            codes.append((source.inputIndex, code))
        }
    }
}
