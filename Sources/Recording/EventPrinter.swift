import DebounceCore
import EventLoop
import EventOutput
import InputModel
import Pipeline
import SystemPackage

/// Prints each debounced event as one line of text or JSON (`EventWriter`), written out at once so it
/// can be piped (watch, run, demo). What follows the standard fields: each line's own fields (its
/// button's name, chip and offset; formatted once), then optionally one of the counts it keeps. Every
/// other output is its input's to write (`InputPrinter`).
package final class EventPrinter: Sink {
    /// What the printer counted for one line.
    package struct Tally: Sendable, Hashable {
        /// Raw edges delivered since the line's previous event.
        package var rawEdgesSinceEvent = 0
        /// Events the line lost so far: the kernel's count where it gives one (libgpiod 2's sequence
        /// numbers), plus one per piece of evidence where it does not (libgpiod 1).
        package var lostEvents = 0
    }

    /// A count printed as the last field of every event.
    package enum TallyField: Sendable, Hashable {
        /// `raw_edges`: `Tally.rawEdgesSinceEvent`.
        case rawEdges
        /// `lost_events`: `Tally.lostEvents`.
        case lostEvents

        func field(_ tally: Tally) -> EventField {
            switch self {
            case .rawEdges: .integer("raw_edges", Int64(tally.rawEdgesSinceEvent))
            case .lostEvents: .integer("lost_events", Int64(tally.lostEvents))
            }
        }
    }

    package let writer: EventWriter
    /// Each line's fields, in memory of the table's own: an event reads them without copying an array.
    private let lineFields: EventFieldTable
    private let tallyField: TallyField?
    /// Each input's own fields, by its input (`OutputSource.input`), after the codes entered on it.
    private let inputFields: [Int: EventFields]
    /// The inputs that write outputs of their own (`InputPrinter`), by their input (`OutputSource.input`).
    private let printers: [Int: any InputPrinter]
    /// Their inputs, in order: each writes its state at the start in this order.
    private let printerInputs: [Int]
    /// The lines whose state at the start a printer writes (`InputPrinter.statedLines`).
    private let statedLines: Set<Int>
    /// The inputs that start from the value the state directory kept, in input order: each prints what
    /// it shows of it at the start (`InputPresenter.printedRestoredStart`: a knob's position).
    private let restored: [any InputPresenter]
    /// With `printsInitialStates`, each line's fields, for its state at the start (`watch
    /// --initial-state`); empty otherwise. A line a printer states (`statedLines`) is printed by it.
    private let initialStateFields: [EventFields]
    /// One per line, in memory of this printer's own (allocated in `init`, freed in `deinit`): counting
    /// an edge is a store, with no uniqueness check of an array. Used from the loop's thread only.
    private let tallies: UnsafeMutableBufferPointer<Tally>

    /// A printer for as many lines as `lineFields` has entries, each line's events followed by its
    /// fields, then `tallyField`; an entered code (its length, never the code) followed by
    /// `inputFields[input]`; every other output written by its input's printer (`printers[input]`,
    /// a detent, a contact's change, a pulse: nothing for an input not listed).
    ///
    /// At the start: each printer's lines (`InputPrinter.writeStart`: a contact's state,
    /// `{"event":"state",…,"initial":true}`), in input order; with `printsInitialStates`, every other
    /// line's state (`{"event":"initial",…}`, `EventWriter.write(initialLevel:…)`); then `restored`:
    /// the inputs that start from a kept value, each printing it (`InputPresenter.printedRestoredStart`:
    /// `{"event":"position",…,"restored":true}`).
    package init(
        writer: EventWriter, lineFields: [EventFields], inputFields: [Int: EventFields] = [:], tallyField: TallyField? = nil,
        printsInitialStates: Bool = false, restored: [any InputPresenter] = [], printers: [Int: any InputPrinter] = [:]
    ) {
        self.restored = restored
        self.printers = printers
        self.printerInputs = printers.keys.sorted()
        self.statedLines = Set(printers.values.flatMap(\.statedLines))
        self.initialStateFields = printsInitialStates ? lineFields : []
        self.writer = writer
        self.inputFields = inputFields
        self.lineFields = EventFieldTable(lineFields)
        self.tallyField = tallyField
        tallies = .allocate(capacity: lineFields.count)
        tallies.initialize(repeating: Tally())
    }

    deinit {
        tallies.deallocate()
    }

    /// What each printer shows at the start at `nowNs`, in input order (a contact's state:
    /// `{"event":"state","state":"on",…,"initial":true}`); with `printsInitialStates`, every other
    /// line's state, in line order: `{"event":"initial",…}`; then what each input that starts from a
    /// kept value shows of it (a knob's position: `{"event":"position",…,"restored":true}`).
    package func start(linesPressed: [Bool?], levels: [Level], atNs nowNs: Int64) {
        // A write error shows again at the first event, which throws it.
        for input in printerInputs {
            try? printers[input]?.writeStart(linesPressed: linesPressed, atNs: nowNs, with: writer)
        }
        for (line, level) in levels.enumerated() where line < initialStateFields.count && !statedLines.contains(line) {
            let pressed = linesPressed.indices.contains(line) ? linesPressed[line] : nil
            try? writer.write(initialLevel: level, pressed: pressed, timeNs: nowNs, fields: initialStateFields[line])
        }
        for input in restored {
            guard let line = input.printedRestoredStart(atNs: nowNs, format: writer.format) else { continue }
            writer.output.append(line)
            try? writer.output.endLine()
        }
    }

    /// Raw edges only for a count of them (`TallyField.rawEdges`).
    package var consumesEdges: Bool { tallyField == .rawEdges }

    /// A writer to a pipe or a terminal writes each line at once (`OutputBuffer.writesEachLine`).
    package var writesOutputsAtOnce: Bool { writer.output.writesEachLine }

    @inline(__always)  // into the `Sink` witness the loop calls: one call fewer per output
    /// An entered code: its length and time, never the code.
    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) throws(SinkError) {
        do {
            try writer.write(codeLength: code.code.count, timeNs: code.timeNs, fields: inputFields[source.inputIndex] ?? .none)
        } catch {
            throw SinkError("cannot write the events", error)
        }
    }

    @inline(__always)  // into the `Sink` witness the loop calls: one call fewer on every event's way
    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        try write(output, with: writer, counting: true)
    }

    /// Writes `output` as `consume` does, to `/dev/null` (a writer of the same format that is then
    /// dropped), counting nothing: the code of an event's line runs once before the first real event
    /// (`Sink.rehearse`). Does nothing if `/dev/null` cannot be opened.
    package func rehearse(_ output: PipelineOutput) {
        guard let null = try? FileDescriptor.open("/dev/null", .writeOnly, options: .closeOnExec) else { return }
        defer { try? null.close() }
        try? write(output, with: EventWriter(format: writer.format, output: OutputBuffer(fileDescriptor: null, flushThreshold: 0)), counting: false)
    }

    /// Writes `output`'s line, if it has one, with `writer`; with `counting`, keeps the tallies (raw
    /// edges since the line's last event, lost events) as well.
    @inline(__always)
    private func write(_ output: PipelineOutput, with writer: EventWriter, counting: Bool) throws(SinkError) {
        switch output {
        case .edge(let lineEdge):
            if counting { tallies[lineEdge.line].rawEdgesSinceEvent += 1 }
        case .event(let source, let event):
            let line = source.lineIndex
            do {
                try writer.write(
                    event, fieldsJSON: lineFields.json(line: line), fieldsText: lineFields.text(line: line),
                    trailing: tallyField?.field(tallies[line]))
            } catch {
                throw SinkError("cannot write the events", error)
            }
            if counting { tallies[line].rawEdgesSinceEvent = 0 }
        case .loss(let line, let count, _):
            if counting { tallies[line].lostEvents += count ?? 1 }
        default:
            try writeInputs(output, with: writer)
        }
    }

    /// Writes `output`, an output other than a line's debounced event (a detent, a contact's change, a
    /// pulse, a reading), with its input's printer (`printers`); an output no input prints (a button's
    /// state, a code's mark, a corrected level) writes nothing.
    private func writeInputs(_ output: PipelineOutput, with writer: EventWriter) throws(SinkError) {
        guard let source = output.source, let printer = printers[source.inputIndex] else { return }
        do { try printer.write(output, with: writer) } catch { throw SinkError("cannot write the events", error) }
    }

    /// What was counted for `line` so far.
    package func tally(line: Int) -> Tally { tallies[line] }

    package func finish(atNs nowNs: Int64) throws(SinkError) {
        do { try writer.output.flush() } catch { throw SinkError("cannot write the events", error) }
    }
}
