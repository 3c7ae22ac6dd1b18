import EventLoop
import LineInput

extension RunAssembly {
    /// The source of an input that is a source of its own (`InputSource`: a keypad's matrix) and the
    /// input's name (what its messages and a reload know it by).
    package struct NamedSource {
        package var name: String
        package var source: any InputSource

        package init(name: String, source: any InputSource) {
            self.name = name
            self.source = source
        }
    }

    /// This run's input with `inputSources` after its lines, each source's lines as lines of the run,
    /// placed at `places` (in the same order).
    package func adding(inputSources: [NamedSource], places added: [LinePlace]) -> RunAssembly {
        guard !inputSources.isEmpty else { return self }
        return RunAssembly(
            source: CompositeEdgeSource([source] + inputSources.map(\.source)), clock: clock, places: places + added, pinSource: source,
            inputSources: inputSources)
    }

    /// Inputs that are sources of their own alone (a configuration of keypads only), on `clock`, their
    /// lines placed at `places`.
    package static func inputSources(_ inputSources: [NamedSource], places: [LinePlace], clock: LoopClock) -> RunAssembly {
        let source: any EdgeSource = inputSources.count == 1 ? inputSources[0].source : CompositeEdgeSource(inputSources.map(\.source))
        return RunAssembly(source: source, clock: clock, places: places, pinSource: nil, inputSources: inputSources)
    }
}
