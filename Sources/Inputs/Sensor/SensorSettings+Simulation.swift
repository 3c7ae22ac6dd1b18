import ConfigurationFile
import Simulation

extension SensorSettings {
    package static var simulationHelp: String { "a door opened and closed per sensor" }

    /// What `run --simulate` plays on this contact's line, the `index`-th contact: a door's reed
    /// contact opened and closed `presses` times (seed `seed + 2000 + index`).
    package func simulated(index: UInt64, seed: UInt64, presses: Int?) -> [SimulatedInput] {
        [.contact(BouncyButton(profile: .reedContact, seed: seed &+ 2_000 &+ index, activeLevel: debounce.activeLevel, presses: presses))]
    }
}
