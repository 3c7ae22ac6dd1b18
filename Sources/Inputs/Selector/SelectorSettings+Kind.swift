import ConfigurationFile
import InputModel
import Simulation

/// A selector switch, as the registry asks it (`InputKind`): its lines read together as one
/// position, which it has again from its lines after a restart or a reload (nothing kept).
extension SelectorSettings: InputKind {
    package func presenter(of entry: Roster.Input, input: Int, place: ((LineID) -> InputKinds.Place)?, start: Int64?) -> any InputPresenter {
        let places = entry.lines.map { InputKinds.at($0, place) }
        return SelectorPresenter(
            self, input: input, chip: places.first?.chip ?? "", lines: place == nil ? [] : places.map(\.offset), lineIndices: entry.lines.map(\.index))
    }

    package func plan(_ entry: Roster.Input, input: Int, groupNames: [String], start: Int64?, into plan: inout DaemonPlan) {
        self.plan(input: input, lines: entry.lines, into: &plan)
    }

    package func checkLines(of entry: Roster.Input, firstPin: Int, places: some CheckedPlaces, publishes: Bool) -> [String] {
        checkLines(firstPin: firstPin, places: places)
    }

    package func simulated(index: UInt64, seed: UInt64, presses: Int?) -> [SimulatedInput] {
        [simulatedInput(seed: seed &+ 6_000 &+ index, moves: presses)]
    }
}
