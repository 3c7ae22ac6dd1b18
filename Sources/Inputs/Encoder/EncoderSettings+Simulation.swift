import ConfigurationFile
import Simulation

extension EncoderSettings {
    package static var simulationHelp: String { "a turned knob per encoder" }

    /// What `run --simulate` plays on this encoder's lines, the `index`-th encoder: a bouncy encoder on
    /// A and B (seed `seed + 1000 + index`, `presses` gestures), and on its reset line, if it has one,
    /// a bouncy button (seed `seed + 4000 + index`).
    package func simulated(index: UInt64, seed: UInt64, presses: Int?) -> [SimulatedInput] {
        let encoder = SimulatedInput.encoder(BouncyEncoder(seed: seed &+ 1_000 &+ index, gestures: presses))
        guard let reset else { return [encoder] }
        return [encoder, .contact(BouncyButton(seed: seed &+ 4_000 &+ index, activeLevel: reset.debounce.activeLevel, presses: presses))]
    }
}
