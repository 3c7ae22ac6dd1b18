import Assembly
import EventOutput
import InputModel
import Recording
import TraceFormat

extension OutputOptions {
    /// The event printer of a command's run: events in this format on standard output, unbuffered
    /// (each wakeup's events are written as they are decided), each line's events with `lineFields`;
    /// `printsInitialStates`: each line's state at the start first (`watch --initial-state`);
    /// `printers`: the inputs that write their own outputs, by their input (`OutputSource.input`).
    func printer(
        lineFields: [EventFields], inputFields: [Int: EventFields] = [:], tallyField: EventPrinter.TallyField? = nil, printsInitialStates: Bool = false,
        printers: [Int: any InputPrinter] = [:], output: OutputBuffer = OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0)
    ) -> EventPrinter {
        EventPrinter(
            writer: writer(output), lineFields: lineFields, inputFields: inputFields, tallyField: tallyField, printsInitialStates: printsInitialStates,
            printers: printers)
    }

    /// An event writer in this format on standard output, written at every line's end.
    func writer(_ output: OutputBuffer = OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0)) -> EventWriter {
        EventWriter(format: format == .json ? .json : .text, output: output)
    }
}

extension RunAssembly.LinePlace {
    /// `chip` and `line` fields, as `watch` prints them.
    var fields: EventFields { EventFields([.text("chip", chip), .integer("line", Int64(offset))]) }
}
