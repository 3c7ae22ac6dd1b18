import DebounceCore
import EventLoop
import LineInput
import Pipeline

/// A whole run of simulated lines in virtual time, through the same `EventLoop` and pipeline as every
/// other mode, with every output kept: for tests, and for tools that want the events of a script at once.
package struct VirtualRun {
    /// Every output of the pipeline, in the order the sinks got them; a code's (`.code`) mark names
    /// its index in `codes`.
    package var outputs: [PipelineOutput]
    /// Every keypad's entered codes, with the keypad's input (`OutputSource.input`).
    package var codes: [(input: Int, code: EnteredCode)]
    package var stop: StopReason
    /// The loop after the run: its pipeline's statistics, its wakeups, its source.
    package var loop: EventLoop

    /// Every contact's reported changes, with their lines.
    package var contacts: [(line: Int, change: ContactEvent)] {
        outputs.compactMap { if case .contact(let source, let change) = $0 { (source.lineIndex, change) } else { nil } }
    }

    /// Every counter's pulses, with their lines.
    package var counts: [(line: Int, pulse: PulseCount)] {
        outputs.compactMap { if case .count(let source, let pulse) = $0 { (source.lineIndex, pulse) } else { nil } }
    }

    /// The debounced events (and gestures), with their lines.
    package var events: [(line: Int, event: ButtonEvent)] {
        outputs.compactMap { if case .event(let source, let event) = $0 { (source.lineIndex, event) } else { nil } }
    }

    /// Plays `lines` (simulated lines, a simulated keypad) through the pipeline `plan` describes, with
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
