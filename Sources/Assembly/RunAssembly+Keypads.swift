import EventLoop
import Keypads

extension RunAssembly {
    /// This run's input with `keypads` after its lines, each keypad's keys as lines of the run
    /// (`KeypadSource`), placed at `keyPlaces` (in the same order).
    package func adding(keypads: [KeypadSource], places keyPlaces: [LinePlace]) -> RunAssembly {
        guard !keypads.isEmpty else { return self }
        return RunAssembly(source: CompositeEdgeSource([source] + keypads), clock: clock, places: places + keyPlaces)
    }

    /// Keypads alone (a configuration with no other input), on `clock`, their keys placed at `keyPlaces`.
    package static func keypads(_ keypads: [KeypadSource], places keyPlaces: [LinePlace], clock: LoopClock) -> RunAssembly {
        let source: any EdgeSource = keypads.count == 1 ? keypads[0] : CompositeEdgeSource(keypads)
        return RunAssembly(source: source, clock: clock, places: keyPlaces)
    }
}
