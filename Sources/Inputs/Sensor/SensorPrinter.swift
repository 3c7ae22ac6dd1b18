import DebounceCore
import EventOutput
import InputModel
import Pipeline
import SystemPackage

/// A contact's changes and its state at the start as the printer writes them
/// (`EventWriter.write(contact:initial:fields:)`):
///
/// - JSON: `{"event":"state","state":"on","time_ns":T,"onset_ns":O,"previous_ns":D,"sensor":"door",…}`,
///   at the start with `"initial":true` and no `previous_ns`;
/// - text: `state   on  time=SECONDS onset=SECONDS previous=D.DDDs sensor=door …`.
package struct SensorPrinter: InputPrinter {
    /// Its run line.
    package let line: Int
    /// Its fields after each line: `,"sensor":"front_door","chip":"gpiochip0","line":23`.
    package let fields: EventFields

    package init(line: Int, fields: EventFields) {
        self.line = line
        self.fields = fields
    }

    /// Its line's state is printed at the start as a contact's.
    package var statedLines: [Int] { [line] }

    package func writeStart(linesPressed: [Bool?], atNs nowNs: Int64, with writer: EventWriter) throws(Errno) {
        guard linesPressed.indices.contains(line), let isOn = linesPressed[line] else { return }
        try writer.write(contact: ContactEvent(isOn: isOn, timeNs: nowNs, onsetNs: nowNs), initial: true, fields: fields)
    }

    package func write(_ output: PipelineOutput, with writer: EventWriter) throws(Errno) {
        guard case .contact(_, let change) = output else { return }
        try writer.write(contact: change, fields: fields)
    }
}
