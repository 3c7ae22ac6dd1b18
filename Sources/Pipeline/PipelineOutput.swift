import DebounceCore

/// What the pipeline hands the sinks, in time order within one wakeup of the loop.
public enum PipelineOutput: Sendable, Hashable {
    /// A raw edge as the line delivered it (for recorders and for counting).
    case edge(LineEdge)
    /// The line lost events here: `count` of them when the kernel says how many (sequence numbers on
    /// libgpiod 2, the simulated line), `nil` when only the evidence says some were lost (libgpiod 1: a
    /// full queue, or two edges of one direction in a row).
    case loss(line: Int, count: Int?, atNs: Int64)
    /// A debounced event of a line (press, release, or a gesture), in the core's terms: `source` is
    /// the line and its input (`LinePlan.input`: a button, a keypad whose key it is).
    case event(OutputSource, ButtonEvent)
    /// A detent of a rotary encoder (`EncoderPlan`): `source` is the encoder (`EncoderPlan.input`)
    /// and its line A.
    case rotation(OutputSource, EncoderEvent)
    /// An encoder's reset button (`LinePlan.role` `.encoderReset`) was pressed: the position of the
    /// encoder `source` names (as `.rotation`'s) was set to `position` at `atNs` (the press's debounced
    /// time), and the next detent counts from it.
    case positionReset(OutputSource, position: Int, atNs: Int64)
    /// A contact's reported state changed (a line whose `LinePlan.role` is `.contact`; `source`, as every
    /// case's below, names the line and its input). Its state at
    /// the start is the sinks' `Sink.start(linesPressed:levels:atNs:)`.
    case contact(OutputSource, ContactEvent)
    /// A counter's line gave a pulse (`LinePlan.role` `.counter`), with the new total.
    case count(OutputSource, PulseCount)
    /// A counter's rate fell with no pulse (`MeterRate`): the most it can still be, or 0 after its
    /// timeout. Its rate at each pulse is in `.count`.
    case rate(OutputSource, CounterReading)
    /// A counter's total was set by hand (`PipelineCommand.reset`, the control socket's): its new
    /// total and its rate as it stands; the next pulse counts from it.
    case totalReset(OutputSource, CounterReading)
    /// A button held since the run started was let go (`isPressed` false) at `atNs`. Its press was
    /// never reported, so neither is its release (no `.event`, no gesture, no action): this output is
    /// for what follows the button's state whatever the events omit (MQTT's state topic).
    case buttonState(OutputSource, isPressed: Bool, atNs: Int64)
    /// A keypad's code was entered (`CodePlan`): `source` is the keypad (`CodePlan.input`) and its
    /// first key's line. The code itself is in the pipeline (`ButtonPipeline.enteredCode(_:)`): the
    /// loop hands it to the sinks (`Sink.consume(code:of:nowNs:)`) in this output's place. The code
    /// is a secret: sinks that write or log events write its length only.
    case code(OutputSource, CodeMark)
    /// A selector switch's lines settled on a new reading (`SelectorPlan`): a position, or an invalid
    /// reading; `source` is the selector (`SelectorPlan.input`) and its first line.
    case selection(OutputSource, SelectorEvent)
    /// A raw (not debounced) line was read again after lost events and found at `level`, which its
    /// delivered edges had not shown; `atNs` is when it was read.
    case levelCorrected(line: Int, level: Level, atNs: Int64)
}

extension PipelineOutput {
    /// Whether the output is an event a run's event limit counts (`LoopLimits.maximumEvents`): a
    /// button's, an encoder's detent or reset, a contact's change, a counter's pulse or reset, or a
    /// selector's reading.
    @inlinable public var countsAsEvent: Bool {
        switch self {
        case .event, .rotation, .positionReset, .contact, .count, .totalReset, .selection: true
        case .edge, .loss, .rate, .buttonState, .code, .levelCorrected: false
        }
    }
}

extension PipelineOutput {
    /// The input and line an output is of; nil for a raw line's edge, loss or corrected level, which
    /// are a line's, not an input's.
    @inlinable public var source: OutputSource? {
        switch self {
        case .event(let source, _), .rotation(let source, _), .positionReset(let source, _, _), .contact(let source, _), .count(let source, _),
            .rate(let source, _), .totalReset(let source, _), .buttonState(let source, _, _), .code(let source, _), .selection(let source, _):
            source
        case .edge, .loss, .levelCorrected: nil
        }
    }
}

extension PipelineOutput {
    /// The value this output gives its input, which the state directory keeps across restarts
    /// (`StateStore`): a counter's total after a pulse or a reset, an encoder's position after a
    /// detent or a reset; nil for every other output.
    public var heldValue: (input: Int, value: Int64)? {
        switch self {
        case .count(let source, let pulse): (source.inputIndex, pulse.total)
        case .totalReset(let source, let reading): (source.inputIndex, reading.total)
        case .rotation(let source, let detent): (source.inputIndex, Int64(detent.position))
        case .positionReset(let source, let position, _): (source.inputIndex, Int64(position))
        default: nil
        }
    }
}
