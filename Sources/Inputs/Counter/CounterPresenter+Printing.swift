import DebounceCore
import EventOutput
import InputModel
import Pipeline

/// A counter's total set by hand (`PipelineOutput.totalReset`, `gpio-debounce reset`), as the printer
/// writes it (its pulses and rate falls have the printer's own writers):
///
/// - JSON: `{"event":"reset","total":N,"value":V,"time_ns":T,"counter":"energy",…}`;
/// - text: `reset   total=N value=V time=SECONDS counter=energy …`.
extension CounterPresenter {
    /// `reset` with no value starts the total again from 0.
    package var resetValue: Int64? { 0 }

    package var printsOwnEvents: Bool { true }

    package func printedLine(for output: PipelineOutput, format: EventFormat) -> [UInt8]? {
        guard case .totalReset(_, let reset) = output else { return nil }
        let value = EventWriter.value(reset.total, perUnit: perUnit)
        switch format {
        case .json:
            return Array(#"{"event":"reset","total":\#(reset.total),"value":\#(value),"time_ns":\#(reset.timeNs)"#.utf8) + eventFields.json + [UInt8(ascii: "}")]
        case .text:
            return Array("reset   total=\(reset.total) value=\(value) time=\(EventWriter.seconds(reset.timeNs))".utf8) + eventFields.text
        }
    }
}
