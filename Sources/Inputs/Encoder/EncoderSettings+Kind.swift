import ConfigurationFile
import InputModel
import Simulation

/// A rotary encoder, as the registry asks it (`InputKind`): lines A and B decoded, and its reset
/// button's line; its position kept with `restore: true`.
extension EncoderSettings: InputKind {
    package func presenter(of entry: Roster.Input, input: Int, place: ((LineID) -> InputKinds.Place)?, start: Int64?) -> any InputPresenter {
        let (a, b) = (InputKinds.at(entry.lines[0], place), InputKinds.at(entry.lines[1], place))
        return EncoderPresenter(
            name: entry.name, input: input, chip: a.chip, lines: place == nil ? [] : [a.offset, b.offset],
            lineIndices: [entry.lines[0].index, entry.lines[1].index], startPosition: start.map(Int.init) ?? configuration.clamped(0),
            resetPosition: reset?.position ?? configuration.clamped(0))
    }

    package func plan(_ entry: Roster.Input, input: Int, groupNames: [String], start: Int64?, into plan: inout DaemonPlan) {
        self.plan(input: input, lines: entry.lines, start: start, into: &plan)
    }

    package func checkLines(of entry: Roster.Input, firstPin: Int, places: some CheckedPlaces, publishes: Bool) -> [String] {
        checkLines(lineA: entry.lines[0], lineB: entry.lines[1], resetLine: entry.lines.count > 2 ? entry.lines[2] : nil, places: places)
    }
}
