import ConfigurationFile
import InputModel
import Simulation

/// A matrix keypad, as the registry asks it (`InputKind`): a source of its own (its matrix scanned),
/// whose keys are lines of the run after the pins.
extension KeypadSettings: InputKind {
    package func presenter(of entry: Roster.Input, input: Int, place: ((LineID) -> InputKinds.Place)?, start: Int64?) -> any InputPresenter {
        // Its keys are lines of the run (row by row), whatever `place` says.
        KeypadPresenter(
            name: entry.name, input: input, keys: layout.flatMap { $0 }, lineIndices: entry.lines.map(\.index),
            places: entry.lines.map { InputKinds.at($0, place) },
            collectsCodes: code != nil, publishesCode: publishCode, namesKey: namesKey)
    }

    package func plan(_ entry: Roster.Input, input: Int, groupNames: [String], start: Int64?, into plan: inout DaemonPlan) {
        self.plan(input: input, keys: entry.lines, into: &plan)
    }

    package func checkLines(of entry: Roster.Input, firstPin: Int, places: some CheckedPlaces, publishes: Bool) -> [String] {
        checkLines(firstPin: firstPin, places: places)
    }

    package var isSourceOfItsOwn: Bool { true }
}
