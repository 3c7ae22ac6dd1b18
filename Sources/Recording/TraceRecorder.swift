import DebounceCore
import EventLoop
import EventOutput
import Pipeline
import SystemPackage
import TraceFormat

/// Records the raw edges of one line or several (an encoder's A and B: the text format's line column,
/// or one VCD channel each), as the replay text format or as VCD (`gpio-debounce record`), written
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
    private var levels: [Level]
    private var lastNs: Int64

    /// Starts the recording of a line called `name` that reads `initialLevel` at `startNs`.
    package convenience init(format: Format, output: OutputBuffer, name: String, initialLevel: Level, startNs: Int64) throws(SinkError) {
        try self.init(format: format, output: output, name: name, signals: ["raw"], initialLevels: [initialLevel], startNs: startNs)
    }

    /// Starts the recording of the lines `name` (one VCD channel per name in `signals`; in text, line
    /// `i` of the line column when there are several) that read `initialLevels` at `startNs`.
    package init(format: Format, output: OutputBuffer, name: String, signals: [String], initialLevels: [Level], startNs: Int64) throws(SinkError) {
        precondition(!signals.isEmpty && signals.count == initialLevels.count, "one initial level per line")
        self.output = output
        self.levels = initialLevels
        self.lastNs = startNs
        let comments = ["gpio-debounce record: raw edges of \(name), kernel timestamps (CLOCK_MONOTONIC ns)"]
        do {
            switch format {
            case .vcd:
                writer = .vcd(try VCDWriter(output: output, signals: signals, initialLevels: initialLevels, startNs: startNs))
            case .text where initialLevels.count == 1:
                writer = .text(try TraceWriter(output: output, comments: comments, initialLevel: initialLevels[0], atNs: startNs))
            case .text:
                writer = .text(try TraceWriter(output: output, comments: comments, initialLevels: initialLevels, atNs: startNs))
            }
        } catch {
            throw SinkError("cannot write the recording", error)
        }
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        do {
            switch output {
            case .edge(let lineEdge):
                let line = lineEdge.line
                if lineEdge.edge.level == levels[line] {
                    try comment(line, "duplicate edge to \(levels[line]): the opposite edge before it was lost")
                }
                // A recording's times never go backwards (the readers require it): an edge the kernel
                // stamped before a level already written by a re-read is written at that level's time.
                try write(Edge(level: lineEdge.edge.level, timeNs: max(lineEdge.edge.timeNs, lastNs)), line: line)
            case .loss(let line, let count, _):
                lostEvents += count ?? 1
                try comment(line, count.map { "lost \(counted($0, "event")) here: the kernel's event queue overflowed" }
                    ?? "events may have been lost here: the kernel's event queue was full")
            case .levelCorrected(let line, let newLevel, let atNs):
                try comment(line, "level re-read as \(newLevel): the kernel lost the edges before this one")
                try write(Edge(level: newLevel, timeNs: max(atNs, lastNs)), line: line)
                corrections += 1
            default:  // an input's outputs: a recording keeps the lines' edges only
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

    private func write(_ edge: Edge, line: Int) throws(Errno) {
        switch writer {
        case .text(let text) where levels.count == 1:
            try text.write(edge)
        case .text(let text):
            try text.write(edge, line: line)
        case .vcd(var vcd):
            try vcd.change(signal: line, to: edge.level, atNs: edge.timeNs)
            writer = .vcd(vcd)
        }
        levels[line] = edge.level
        lastNs = max(lastNs, edge.timeNs)
        writtenEdges += 1
    }

    /// A note about `line` (named in it when several lines are recorded).
    private func comment(_ line: Int, _ text: String) throws(Errno) {
        let note = levels.count == 1 ? text : "line \(line): \(text)"
        switch writer {
        case .text:
            output.appendUTF8("# \(note)")
            try output.endLine()
        case .vcd(let vcd):
            try vcd.comment(note)
        }
    }
}
