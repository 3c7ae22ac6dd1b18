import DebounceCore
import EventLoop
import Pipeline
import SystemPackage
import TraceFormat

/// Prints each debounced event as one line of text or JSON (`EventWriter`), written out at once so it
/// can be piped (watch, run, demo). What follows the standard fields comes from `fields`: the chip,
/// the line, the button's name, the events the kernel lost...
public final class EventPrinter: Sink {
    /// What the printer counted for one line.
    public struct Tally: Sendable, Hashable {
        /// Raw edges delivered since the line's previous event.
        public var rawEdgesSinceEvent = 0
        /// Events the line lost so far: the kernel's count where it gives one (libgpiod 2's sequence
        /// numbers), plus one per piece of evidence where it does not (libgpiod 1).
        public var lostEvents = 0
    }

    /// The extra fields of an event of `line`, given what was counted for it.
    public typealias Fields = (_ line: Int, _ tally: Tally) -> [EventField]

    public let writer: EventWriter
    private let fields: Fields
    /// Used from the loop's thread only, never in overlapping accesses: not checked at run time.
    @exclusivity(unchecked) private var tallies: [Tally]

    /// A printer for `lineCount` lines.
    public init(writer: EventWriter, lineCount: Int, fields: @escaping Fields = { _, _ in [] }) {
        self.writer = writer
        self.fields = fields
        self.tallies = Array(repeating: Tally(), count: lineCount)
    }

    public func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        switch output {
        case .edge(let lineEdge):
            tallies[lineEdge.line].rawEdgesSinceEvent += 1
        case .event(let line, let event):
            do {
                try writer.write(event, extraFields: fields(line, tallies[line]))
            } catch {
                throw SinkError("cannot write the events", error)
            }
            tallies[line].rawEdgesSinceEvent = 0
        case .loss(let line, let count, _):
            tallies[line].lostEvents += count ?? 1
        case .levelCorrected:
            break
        }
    }

    /// What was counted for `line` so far.
    public func tally(line: Int) -> Tally { tallies[line] }

    public func finish(atNs nowNs: Int64) throws(SinkError) {
        do { try writer.output.flush() } catch { throw SinkError("cannot write the events", error) }
    }
}
