import EventLoop
import Keypads
import LineInput

extension RunAssembly {
    /// A keypad's source and its name (what its messages and a reload know it by).
    package struct NamedKeypad {
        package var name: String
        package var source: KeypadSource

        package init(name: String, source: KeypadSource) {
            self.name = name
            self.source = source
        }
    }

    /// This run's input with `keypads` after its lines, each keypad's keys as lines of the run
    /// (`KeypadSource`), placed at `keyPlaces` (in the same order).
    package func adding(keypads: [NamedKeypad], places keyPlaces: [LinePlace]) -> RunAssembly {
        guard !keypads.isEmpty else { return self }
        return RunAssembly(
            source: CompositeEdgeSource([source] + keypads.map(\.source)), clock: clock, places: places + keyPlaces, pinSource: source, keypads: keypads)
    }

    /// Keypads alone (a configuration with no other input), on `clock`, their keys placed at `keyPlaces`.
    package static func keypads(_ keypads: [NamedKeypad], places keyPlaces: [LinePlace], clock: LoopClock) -> RunAssembly {
        let source: any EdgeSource = keypads.count == 1 ? keypads[0].source : CompositeEdgeSource(keypads.map(\.source))
        return RunAssembly(source: source, clock: clock, places: keyPlaces, pinSource: nil, keypads: keypads)
    }
}
