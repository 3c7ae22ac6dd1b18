import DebounceCore
import Pipeline

/// One simulated input of a run and the lines it plays: a bouncy contact (a button, a reed switch, a
/// meter's pulse output) on one line, a bouncy encoder on two (A, then B), or any input of several
/// lines that plays one script for all of them (a selector switch). `SimulatedLines(inputs:)` lays
/// them out in the order given.
package enum SimulatedInput: Sendable {
    case contact(BouncyButton)
    case encoder(BouncyEncoder)
    /// Lines that read `initialLevels` at the start and then play `script`: each edge with its line
    /// among them (0 the first), in time order, times in nanoseconds from the simulation's start.
    case lines(initialLevels: [Level], script: any IteratorProtocol<LineEdge> & Sendable)

    /// How many lines it plays: 1 for a contact, 2 for an encoder, its levels' count for lines.
    package var lineCount: Int {
        switch self {
        case .contact: 1
        case .encoder: 2
        case .lines(let levels, _): levels.count
        }
    }
}
