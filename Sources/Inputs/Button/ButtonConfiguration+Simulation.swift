import ConfigurationFile
import Simulation

extension ButtonConfiguration {
    package static var simulationHelp: String { "a bouncy button per button" }

    /// What `run --simulate` plays on this button's line, the `index`-th button: a bouncy button
    /// making the gestures it recognizes (the click counts its actions and keys ask for too), its seed
    /// `seed + index`, pressed `presses` times (nil: forever).
    package func simulated(index: UInt64, seed: UInt64, presses: Int?) -> [SimulatedInput] {
        let clickCounts = actions.compactMap(\.count) + keys.compactMap(\.count)
        return [
            .contact(
                BouncyButton(
                    seed: seed &+ index, activeLevel: debounce.activeLevel, presses: presses,
                    gestures: SimulatedGestures(gestures, debounce: debounce, clickCounts: clickCounts)))
        ]
    }
}
