import EventOutput
import InputModel
import Pipeline
import SystemPackage

/// An encoder's detents and the resets of its position as the printer writes them
/// (`EventWriter.write(rotation:fields:)`, `write(resetPosition:timeNs:fields:)`), each followed by
/// its fields (`,"encoder":"volume","chip":"gpiochip0","lines":[17,27]`, or `watch --encoder`'s chip
/// and lines).
package struct EncoderPrinter: InputPrinter {
    package let fields: EventFields

    package init(fields: EventFields) {
        self.fields = fields
    }

    package func write(_ output: PipelineOutput, with writer: EventWriter) throws(Errno) {
        switch output {
        case .rotation(_, let detent): try writer.write(rotation: detent, fields: fields)
        case .positionReset(_, let position, let timeNs): try writer.write(resetPosition: position, timeNs: timeNs, fields: fields)
        default: return
        }
    }
}
