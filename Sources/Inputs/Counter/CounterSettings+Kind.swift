import ConfigurationFile
import InputModel
import Simulation

/// A pulse counter, as the registry asks it (`InputKind`): one line, its total kept.
extension CounterSettings: InputKind {
    package func presenter(of entry: Roster.Input, input: Int, place: ((LineID) -> InputKinds.Place)?, start: Int64?) -> any InputPresenter {
        let line = entry.lines[0]
        let at = InputKinds.at(line, place)
        return CounterPresenter(
            name: entry.name, input: input, chip: at.chip, line: at.offset, lineIndex: line.index, perUnit: perUnit, unit: unit,
            deviceClass: deviceClass, startTotal: start ?? 0,
            publishIntervalNs: publishIntervalNs, rateUnit: rateUnit, rateDeviceClass: rateDeviceClass)
    }

    package func plan(_ entry: Roster.Input, input: Int, groupNames: [String], start: Int64?, into plan: inout DaemonPlan) {
        self.plan(input: input, line: entry.lines[0], start: start, into: &plan)
    }

    package func checkLines(of entry: Roster.Input, firstPin: Int, places: some CheckedPlaces, publishes: Bool) -> [String] {
        checkLines(line: entry.lines[0], places: places, publishes: publishes)
    }
}
