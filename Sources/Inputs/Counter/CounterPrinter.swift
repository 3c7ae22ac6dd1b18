import DebounceCore
import EventOutput
import InputModel
import Pipeline
import SystemPackage

/// A meter's pulses, the falls of its rate and the resets of its total as the printer writes them,
/// each followed by its fields (`,"counter":"energy","chip":"gpiochip0","line":22`):
///
/// - a pulse and a fall: `EventWriter.write(count:perUnit:rateUnit:fields:)` and
///   `write(rateFall:rateUnit:fields:)`;
/// - a total set by hand (`PipelineOutput.totalReset`, `gpio-debounce reset`): JSON
///   `{"event":"reset","total":N,"value":V,"time_ns":T,"counter":"energy",…}`, text
///   `reset   total=N value=V time=SECONDS counter=energy …`.
package struct CounterPrinter: InputPrinter {
    package let fields: EventFields
    /// Pulses per unit: a pulse's `value` is its total over this.
    package let perUnit: Double
    /// Its rate's unit (W, L/min, m³/h, `EventWriter.pulsesPerMinute`).
    package let rateUnit: String

    package init(fields: EventFields, perUnit: Double, rateUnit: String) {
        self.fields = fields
        self.perUnit = perUnit
        self.rateUnit = rateUnit
    }

    package func write(_ output: PipelineOutput, with writer: EventWriter) throws(Errno) {
        switch output {
        case .count(_, let pulse): try writer.write(count: pulse, perUnit: perUnit, rateUnit: rateUnit, fields: fields)
        case .rate(_, let fall): try writer.write(rateFall: fall, rateUnit: rateUnit, fields: fields)
        case .totalReset(_, let reset):
            writer.output.append(resetLine(reset, format: writer.format))
            try writer.output.endLine()
        default: return
        }
    }

    /// The line (without its newline) of a total set by hand to `reset.total` at `reset.timeNs`.
    package func resetLine(_ reset: CounterReading, format: EventFormat) -> [UInt8] {
        let value = EventWriter.value(reset.total, perUnit: perUnit)
        switch format {
        case .json:
            return Array(#"{"event":"reset","total":\#(reset.total),"value":\#(value),"time_ns":\#(reset.timeNs)"#.utf8) + fields.json + [UInt8(ascii: "}")]
        case .text:
            return Array("reset   total=\(reset.total) value=\(value) time=\(EventWriter.seconds(reset.timeNs))".utf8) + fields.text
        }
    }
}
