import ConfigurationFile
import Simulation

extension CounterSettings {
    package static var simulationHelp: String { "an S0 meter per counter" }

    /// What `run --simulate` plays on this counter's line, the `index`-th counter: an S0 meter's
    /// `presses` pulses (seed `seed + 3000 + index`).
    package func simulated(index: UInt64, seed: UInt64, presses: Int?) -> [SimulatedInput] {
        [.contact(BouncyButton(profile: .meterPulse, seed: seed &+ 3_000 &+ index, activeLevel: debounce.activeLevel, presses: presses))]
    }
}
