import DebounceCore
import EventLoop
import Pipeline
import SystemPackage
import EventOutput
import TraceFormat

/// The sink that writes one line's raw signal and its debounced one side by side as a VCD (signals
/// `raw` and `pressed`), for PulseView or GTKWave: `replay --format vcd`. `pressed` follows the press
/// and release events the run reports, so it starts low: a button held when the recording began
/// shows as pressed from its first reported press.
package final class SignalComparisonSink: Sink {
    private var writer: VCDWriter

    /// Writes the VCD's header with the raw line at `initialLevel` at `startNs`, to `output`.
    package init(output: OutputBuffer, initialLevel: Level, startNs: Int64) throws(Errno) {
        writer = try VCDWriter(output: output, signals: ["raw", "pressed"], initialLevels: [initialLevel, .low], startNs: startNs)
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        do {
            switch output {
            case .edge(let lineEdge):
                try writer.change(signal: 0, to: lineEdge.edge.level, atNs: max(lineEdge.edge.timeNs, writer.latestTimeNs))
            case .event(_, let event) where event.kind == .press || event.kind == .release:
                try writer.change(signal: 1, to: event.kind == .press ? .high : .low, atNs: max(event.timeNs, writer.latestTimeNs))
            default:
                break
            }
        } catch {
            throw SinkError("cannot write the VCD", error)
        }
    }

    package func finish(atNs nowNs: Int64) throws(SinkError) {
        do {
            try writer.finish(atNs: max(nowNs, writer.latestTimeNs))
        } catch {
            throw SinkError("cannot write the VCD", error)
        }
    }
}
