import DebounceCore
import Simulation

extension SelectorSettings {
    package static var simulationHelp: String { "a switch turned now and then per selector" }

    /// What `run --simulate` plays on this selector's lines: a person turning it (`SimulatedSelector`,
    /// seeded with `seed`), `moves` times (nil: forever), from its lowest position.
    func simulatedInput(seed: UInt64, moves: Int?) -> SimulatedInput {
        let selector = SimulatedSelector(configuration: configuration, activeLevel: activeLevel, lowestValue: lowestValue, seed: seed, moves: moves)
        return .lines(initialLevels: selector.initialLevels, script: selector)
    }
}
