import DebounceCore
import Pipeline
import Simulation

/// The outputs of two kinds' stages, as these tests read a run's.
extension VirtualRun {
    /// Every encoder's detents, with the encoder's input (`OutputSource.input`).
    var rotations: [(input: Int, event: EncoderEvent)] {
        outputs.compactMap { if case .rotation(let source, let event) = $0 { (source.inputIndex, event) } else { nil } }
    }

    /// Every counter's rate falls with no pulse, with their lines.
    var rateFalls: [(line: Int, fall: CounterReading)] {
        outputs.compactMap { if case .rate(let source, let fall) = $0 { (source.lineIndex, fall) } else { nil } }
    }
}
