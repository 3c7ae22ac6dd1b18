import EventOutput
import Pipeline
import SystemPackage

/// How the printer (`run`, `watch`, `replay`) writes an input's own outputs: every output but a
/// line's debounced event (`PipelineOutput.event`), which the printer writes itself. A kind with such
/// outputs writes them in its own unit (`<Kind>Printer.swift`, or its presenter, as a selector's), into
/// the printer's buffer (`EventWriter`'s methods, or a line it makes).
package protocol InputPrinter: Sendable {
    /// The run lines whose state at the start `writeStart` writes, which `watch --initial-state`
    /// then leaves out; none by default.
    var statedLines: [Int] { get }

    /// Writes the input's state at the start of a run at `nowNs`, from each run line's state then
    /// (as `Sink.start`'s `linesPressed`), each line ended; nothing by default. (A value the state
    /// directory kept is the presenter's to show, `InputPresenter.printedRestoredStart`.)
    func writeStart(linesPressed: [Bool?], atNs nowNs: Int64, with writer: EventWriter) throws(Errno)

    /// Writes `output`, one of this input's, each line ended; nothing for an output it does not print.
    func write(_ output: PipelineOutput, with writer: EventWriter) throws(Errno)
}

extension InputPrinter {
    package var statedLines: [Int] { [] }

    package func writeStart(linesPressed: [Bool?], atNs nowNs: Int64, with writer: EventWriter) throws(Errno) {}
}
