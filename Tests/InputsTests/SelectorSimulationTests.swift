import ConfigurationFile
import DebounceCore
@testable import Inputs
import Pipeline
import Simulation
import Testing

/// A simulated selector switch (`SimulatedSelector`: break before make, bounce, a stop between two
/// positions now and then; a coded switch's lines changing one after another) through the plan a
/// configuration makes: every move is reported once, in order, and nothing else.
@Suite struct SelectorSimulationTests {
    static func selector(_ yaml: String) throws -> SelectorSettings {
        try #require(ConfigurationLoader.load(yaml, file: "s.yaml").roster.inputs(of: SelectorSettings.self).first?.settings)
    }

    /// What a decoder should report of `selector`'s moves (seed `seed`, `moves` of them).
    static func expected(_ selector: SelectorSettings, seed: UInt64, moves: Int) -> [SelectorEvent.Kind] {
        var truth = SimulatedSelector(
            configuration: selector.configuration, activeLevel: selector.activeLevel, lowestValue: selector.lowestValue, seed: seed, moves: moves, recordsMoves: true)
        while truth.next() != nil {}
        var previous = selector.lowestValue
        return truth.moves.flatMap { move -> [SelectorEvent.Kind] in
            defer { previous = move.position }
            let landing = SelectorEvent.Kind.select(position: move.position, previous: previous)
            return move.stoppedBetween ? [.invalid(activeLines: 0), landing] : [landing]
        }
    }

    static func play(_ yaml: String, seed: UInt64, moves: Int) throws -> (reported: [SelectorEvent.Kind], expected: [SelectorEvent.Kind]) {
        let configuration = try ConfigurationLoader.load(yaml, file: "s.yaml")
        let selector = try #require(configuration.roster.inputs(of: SelectorSettings.self).first?.settings)
        let lines = SimulatedLines(inputs: [selector.simulatedInput(seed: seed, moves: moves)])
        let run = try VirtualRun.play(lines, plan: DaemonPlan(configuration).pipeline)
        let reported = run.outputs.compactMap { if case .selection(_, let event) = $0 { event.kind } else { nil } }
        return (reported, expected(selector, seed: seed, moves: moves))
    }

    @Test(arguments: 1...10 as ClosedRange<UInt64>)
    func aRotarySwitchsMovesAreReportedOnceEach(seed: UInt64) throws {
        let run = try Self.play("selectors: [{name: mode, lines: [5, 6, 13, 19], active: high}]", seed: seed, moves: 60)
        #expect(run.expected.count(where: { if case .select = $0 { true } else { false } }) == 60)
        #expect(run.reported == run.expected)
    }

    @Test(arguments: ["binary", "gray", "bcd"], 1...4 as ClosedRange<UInt64>)
    func aCodedSwitchsMovesAreReportedOnceEach(code: String, seed: UInt64) throws {
        let run = try Self.play("selectors: [{name: dial, lines: [5, 6, 13, 19, 26], code: \(code)}]", seed: seed, moves: 40)
        #expect(run.expected.count == 40 && !run.expected.contains(.invalid(activeLines: 0)))
        #expect(run.reported == run.expected)
    }

    /// A simulation of one switch stops between two positions now and then: the invalid reading is
    /// played, so `run --simulate` shows it.
    @Test func someMovesStopBetweenTwoPositions() throws {
        let run = try Self.play("selectors: [{name: mode, lines: [5, 6, 13]}]", seed: 3, moves: 300)
        #expect(run.reported.contains(.invalid(activeLines: 0)))
        #expect(run.reported == run.expected)
    }
}
