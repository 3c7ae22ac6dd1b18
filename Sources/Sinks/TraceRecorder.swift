import DebounceCore
import EventLoop
import EventOutput
import Pipeline
import SystemPackage
import TraceFormat

/// Records one line's raw edges, as the replay text format or as VCD (`gpio-debounce record`), written
/// out after every wakeup, marking
/// where the kernel lost events (`# lost ...` lines, `$comment` blocks) and where a re-read found the
/// line at a level its edges had not shown.
package final class TraceRecorder: Sink {
    /// The file formats.
    package enum Format: Sendable { case text, vcd }

    /// Edges written (corrections included).
    package private(set) var writtenEdges = 0
    /// Events the kernel said it lost, plus the places where only evidence showed a loss.
    package private(set) var lostEvents = 0
    /// Levels corrected by re-reading the line.
    package private(set) var corrections = 0

    private enum Writer {
        case text(TraceWriter)
        case vcd(VCDWriter)
    }

    private var writer: Writer
    private let output: OutputBuffer
    private var level: Level
    private var lastNs: Int64

    /// Starts the recording of a line called `name` that reads `initialLevel` at `startNs`.
    package init(format: Format, output: OutputBuffer, name: String, initialLevel: Level, startNs: Int64) throws(SinkError) {
        self.output = output
        self.level = initialLevel
        self.lastNs = startNs
        do {
            switch format {
            case .vcd:
                writer = .vcd(try VCDWriter(output: output, signals: ["raw"], initialLevels: [initialLevel], startNs: startNs))
            case .text:
                writer = .text(try TraceWriter(
                    output: output, comments: ["gpio-debounce record: raw edges of \(name), kernel timestamps (CLOCK_MONOTONIC ns)"],
                    initialLevel: initialLevel, atNs: startNs))
            }
        } catch {
            throw SinkError("cannot write the recording", error)
        }
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        do {
            switch output {
            case .edge(let lineEdge):
                if lineEdge.edge.level == level {
                    try comment("duplicate edge to \(level): the opposite edge before it was lost")
                }
                // A recording's times never go backwards (the readers require it): an edge the kernel
                // stamped before a level already written by a re-read is written at that level's time.
                try write(Edge(level: lineEdge.edge.level, timeNs: max(lineEdge.edge.timeNs, lastNs)))
            case .loss(_, let count, _):
                lostEvents += count ?? 1
                try comment(count.map { "lost \(counted($0, "event")) here: the kernel's event queue overflowed" }
                    ?? "events may have been lost here: the kernel's event queue was full")
            case .levelCorrected(_, let newLevel, let atNs):
                try comment("level re-read as \(newLevel): the kernel lost the edges before this one")
                try write(Edge(level: newLevel, timeNs: max(atNs, lastNs)))
                corrections += 1
            case .event, .rotation:
                break
            }
        } catch {
            throw SinkError("cannot write the recording", error)
        }
    }

    /// Writes out what this wakeup recorded: a recording read from a pipe shows edges as they come,
    /// and a crash loses at most one wakeup's edges.
    package func advance(toNs nowNs: Int64) throws(SinkError) {
        do { try output.flush() } catch { throw SinkError("cannot write the recording", error) }
    }

    package func finish(atNs nowNs: Int64) throws(SinkError) {
        do {
            if case .vcd(var vcd) = writer {
                try vcd.finish(atNs: max(lastNs, nowNs))
                writer = .vcd(vcd)
            }
            try output.flush()
        } catch {
            throw SinkError("cannot write the recording", error)
        }
    }

    private func write(_ edge: Edge) throws(Errno) {
        switch writer {
        case .text(let text):
            try text.write(edge)
        case .vcd(var vcd):
            try vcd.change(signal: 0, to: edge.level, atNs: edge.timeNs)
            writer = .vcd(vcd)
        }
        level = edge.level
        lastNs = max(lastNs, edge.timeNs)
        writtenEdges += 1
    }

    private func comment(_ note: String) throws(Errno) {
        switch writer {
        case .text:
            output.appendUTF8("# \(note)")
            try output.endLine()
        case .vcd(let vcd):
            try vcd.comment(note)
        }
    }
}
