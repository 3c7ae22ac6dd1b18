import DebounceCore
import EventLoop
import EventOutput
import InputModel
import Pipeline
import SystemPackage

/// Prints each debounced event as one line of text or JSON (`EventWriter`), written out at once so it
/// can be piped (watch, run, demo). What follows the standard fields: each line's own fields (its
/// button's name, chip and offset; formatted once), then optionally one of the counts it keeps.
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
    /// Each input's own fields, by its input (`OutputSource.input`), after the events that are its
    /// input's rather than a line's (detents, resets, codes): its name, and its chip and lines where it
    /// has them.
    private let inputFields: [Int: EventFields]
    /// The fields of the lines whose states, pulses and rates this printer writes (they are few: read
    /// from here, not from the table).
    private let roleFields: [Int: EventFields]
    /// The lines that are contacts, in line order: their state is printed at the start.
    private let contactLines: [Int]
    /// Each meter's line → its pulses per unit.
    private let perUnit: [Int: Double]
    /// Each meter's line → its rate's unit (W, L/min, m³/h); pulses per minute for a line not listed.
    private let rateUnits: [Int: String]
    /// The inputs that start from the value the state directory kept, in input order: each prints what
    /// it shows of it at the start (`InputPresenter.printedRestoredStart`: a knob's position).
    private let restored: [any InputPresenter]
    /// The inputs that print their own events (`InputPresenter.printsOwnEvents`), by their input
    /// (`OutputSource.input`): what the printer has no writer for goes to them, and their state at the start.
    private let ownPrinters: [Int: any InputPresenter]
    /// With `printsInitialStates`, each line's fields, for its state at the start (`watch
    /// --initial-state`); empty otherwise. A contact's state at the start is printed in any case.
    private let initialStateFields: [EventFields]
    /// One per line, in memory of this printer's own (allocated in `init`, freed in `deinit`): counting
    /// an edge is a store, with no uniqueness check of an array. Used from the loop's thread only.
    private let tallies: UnsafeMutableBufferPointer<Tally>

    /// A printer for as many lines as `lineFields` has entries, each line's events followed by its
    /// fields, then `tallyField`; an input's own events (a knob's detents and resets, an entered
    /// code: its length, never the code) followed by `inputFields[input]`.
    ///
    /// `contactLines`: the lines that are contacts, whose state is printed once at the start
    /// (`{"event":"state",…,"initial":true}`); `perUnit`: for each meter's line, its pulses per unit
    /// (a count event's `value` is its total over this); `rateUnits`: for each meter's line, its
    /// rate's unit (`EventWriter.pulsesPerMinute` for one not listed); `printsInitialStates`: every other line's
    /// state at the start is printed too (`{"event":"initial",…}`, `EventWriter.write(initialLevel:…)`);
    /// `restored`: the inputs that start from a kept value, each printing it at the start
    /// (`InputPresenter.printedRestoredStart`: `{"event":"position",…,"restored":true}`); `ownPrinters`: the inputs that print their own
    /// events, by their input (those of `InputPresenter.printsOwnEvents`).
    package init(
        writer: EventWriter, lineFields: [EventFields], inputFields: [Int: EventFields] = [:], tallyField: TallyField? = nil,
        contactLines: Set<Int> = [], perUnit: [Int: Double] = [:], rateUnits: [Int: String] = [:], printsInitialStates: Bool = false,
        restored: [any InputPresenter] = [], ownPrinters: [Int: any InputPresenter] = [:]
    ) {
        self.restored = restored
        self.ownPrinters = ownPrinters
        self.initialStateFields = printsInitialStates ? lineFields : []
        self.writer = writer
        self.inputFields = inputFields
        self.lineFields = EventFieldTable(lineFields)
        self.tallyField = tallyField
        self.contactLines = contactLines.sorted()
        self.perUnit = perUnit
        self.rateUnits = rateUnits
        var roleFields: [Int: EventFields] = [:]
        for line in contactLines.union(perUnit.keys) where lineFields.indices.contains(line) { roleFields[line] = lineFields[line] }
        self.roleFields = roleFields
        tallies = .allocate(capacity: lineFields.count)
        tallies.initialize(repeating: Tally())
    }

    deinit {
        tallies.deallocate()
    }

    /// Each contact's state at the start: `{"event":"state","state":"on",…,"initial":true}`, at `nowNs`;
    /// with `printsInitialStates`, every other line's too, in line order: `{"event":"initial",…}`; then
    /// what each input that starts from a kept value shows of it (a knob's position:
    /// `{"event":"position",…,"restored":true}`); then what each
    /// input that prints its own events shows of its state, in input order.
    package func start(linesPressed: [Bool?], levels: [Level], atNs nowNs: Int64) {
        // A write error shows again at the first event, which throws it.
        for line in contactLines where linesPressed.indices.contains(line) {
            guard let isOn = linesPressed[line] else { continue }
            try? writer.write(contact: ContactEvent(isOn: isOn, timeNs: nowNs, onsetNs: nowNs), initial: true, fields: roleFields[line] ?? .none)
        }
        for (line, level) in levels.enumerated() where line < initialStateFields.count && !contactLines.contains(line) {
            let pressed = linesPressed.indices.contains(line) ? linesPressed[line] : nil
            try? writer.write(initialLevel: level, pressed: pressed, timeNs: nowNs, fields: initialStateFields[line])
        }
        for input in restored {
            guard let line = input.printedRestoredStart(atNs: nowNs, format: writer.format) else { continue }
            writer.output.append(line)
            try? writer.output.endLine()
        }
        for input in ownPrinters.keys.sorted() {
            for line in ownPrinters[input]?.printedStart(linesPressed: linesPressed, atNs: nowNs, format: writer.format) ?? [] {
                writer.output.append(line)
                try? writer.output.endLine()
            }
        }
    }

    /// Raw edges only for a count of them (`TallyField.rawEdges`).
    package var consumesEdges: Bool { tallyField == .rawEdges }

    @inline(__always)  // into the `Sink` witness the loop calls: one call fewer per output
    /// An entered code: its length and time, never the code.
    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) throws(SinkError) {
        do {
            try writer.write(codeLength: code.code.count, timeNs: code.timeNs, fields: inputFields[source.inputIndex] ?? .none)
        } catch {
            throw SinkError("cannot write the events", error)
        }
    }

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

    /// Writes `output`, an input's other than a button's event (a detent, a reset, a contact's change,
    /// a pulse, a falling rate), or hands it to the input's own printer (`ownPrinters`); an output no
    /// one prints (a button's state, a code's mark, a corrected level) writes nothing.
    private func writeInputs(_ output: PipelineOutput, with writer: EventWriter) throws(SinkError) {
        switch output {
        case .rotation(let source, let detent):
            do {
                try writer.write(rotation: detent, fields: inputFields[source.inputIndex] ?? .none)
            } catch {
                throw SinkError("cannot write the events", error)
            }
        case .positionReset(let source, let position, let timeNs):
            do {
                try writer.write(resetPosition: position, timeNs: timeNs, fields: inputFields[source.inputIndex] ?? .none)
            } catch {
                throw SinkError("cannot write the events", error)
            }
        case .contact(let source, let change):
            let line = source.lineIndex
            do {
                try writer.write(contact: change, fields: roleFields[line] ?? .none)
            } catch {
                throw SinkError("cannot write the events", error)
            }
        case .count(let source, let pulse):
            let line = source.lineIndex
            do {
                try writer.write(count: pulse, perUnit: perUnit[line] ?? 1, rateUnit: rateUnits[line] ?? EventWriter.pulsesPerMinute, fields: roleFields[line] ?? .none)
            } catch {
                throw SinkError("cannot write the events", error)
            }
        case .rate(let source, let fall):
            let line = source.lineIndex
            do {
                try writer.write(rateFall: fall, rateUnit: rateUnits[line] ?? EventWriter.pulsesPerMinute, fields: roleFields[line] ?? .none)
            } catch {
                throw SinkError("cannot write the events", error)
            }
        default:
            guard let source = output.source, let printer = ownPrinters[source.inputIndex],
                let line = printer.printedLine(for: output, format: writer.format)
            else { return }
            writer.output.append(line)
            do { try writer.output.endLine() } catch { throw SinkError("cannot write the events", error) }
        }
    }

    /// What was counted for `line` so far.
    package func tally(line: Int) -> Tally { tallies[line] }

    package func finish(atNs nowNs: Int64) throws(SinkError) {
        do { try writer.output.flush() } catch { throw SinkError("cannot write the events", error) }
    }
}
