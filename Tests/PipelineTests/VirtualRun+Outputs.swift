import DebounceCore
import Pipeline
import Simulation

/// The outputs of some kinds' stages, as these tests read a run's.
extension VirtualRun {
    /// Every encoder's detents, with the encoder's input (`OutputSource.input`).
    var rotations: [(input: Int, event: EncoderEvent)] {
        outputs.compactMap { if case .rotation(let source, let event) = $0 { (source.inputIndex, event) } else { nil } }
    }

    /// Every counter's rate falls with no pulse, with their lines.
    var rateFalls: [(line: Int, fall: CounterReading)] {
        outputs.compactMap { if case .rate(let source, let fall) = $0 { (source.lineIndex, fall) } else { nil } }
    }

    /// Every contact's reported changes, with their lines.
    var contacts: [(line: Int, change: ContactEvent)] {
        outputs.compactMap { if case .contact(let source, let change) = $0 { (source.lineIndex, change) } else { nil } }
    }

    /// Every counter's pulses, with their lines.
    var counts: [(line: Int, pulse: PulseCount)] {
        outputs.compactMap { if case .count(let source, let pulse) = $0 { (source.lineIndex, pulse) } else { nil } }
    }
}
