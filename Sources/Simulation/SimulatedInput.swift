import DebounceCore
import Pipeline

/// What a simulated input of a run plays, on its lines: one line's script (a bouncy contact: a
/// button's, a reed switch's, a meter's pulse output), or one script for all of its lines (a
/// knob's A and B, a rotary switch's). Each kind says what its input plays
/// (`InputKind.simulated`); `SimulatedLines(inputs:)` lays them out in the order given.
package enum SimulatedInput: Sendable {
    /// One line that reads `initialLevel` at the start and then plays `script`, times in nanoseconds
    /// from the simulation's start.
    case line(initialLevel: Level, script: any IteratorProtocol<Edge> & Sendable)
    /// Lines that read `initialLevels` at the start and then play `script`: each edge with its line
    /// among them (0 the first), in time order, times in nanoseconds from the simulation's start.
    case lines(initialLevels: [Level], script: any IteratorProtocol<LineEdge> & Sendable)

    /// A bouncy contact on one line, from its released level.
    package static func contact(_ contact: BouncyButton) -> SimulatedInput { .line(initialLevel: contact.initialLevel, script: contact) }

    /// How many lines it plays.
    package var lineCount: Int {
        switch self {
        case .line: 1
        case .lines(let levels, _): levels.count
        }
    }
}
