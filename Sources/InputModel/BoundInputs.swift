import Pipeline

/// Bindings (an action's, a key's) grouped by the input whose outputs they answer, with each bound
/// input's presenter: what a sink that acts on outputs looks up per output. An input without bindings
/// costs an array bounds check; its presenter is never asked.
package struct BoundInputs<Binding: Sendable>: Sendable {
    /// The bindings of each input, by its input (`OutputSource.input`); empty for most.
    private let bindingsOfInput: [[Binding]]
    /// The presenter of each input with bindings, by its input.
    private let presenters: [Int: any InputPresenter]

    /// `bindings`, each of input `input(binding)`, kept for the inputs `inputs` present (those of other
    /// inputs are dropped).
    package init(_ bindings: [Binding], input: (Binding) -> Int, inputs: [any InputPresenter]) {
        let presented = Dictionary(inputs.map { ($0.description.input, $0) }, uniquingKeysWith: { first, _ in first })
        let kept = bindings.filter { presented[input($0)] != nil }
        var perInput = Array(repeating: [Binding](), count: (kept.map(input).max() ?? -1) + 1)
        for binding in kept { perInput[input(binding)].append(binding) }
        bindingsOfInput = perInput
        presenters = presented.filter { perInput.indices.contains($0.key) && !perInput[$0.key].isEmpty }
    }

    /// The presenter of the input `source` names and its bindings; nil when it has none.
    package func bound(_ source: OutputSource) -> (presenter: any InputPresenter, bindings: [Binding])? {
        let index = source.inputIndex
        guard bindingsOfInput.indices.contains(index), !bindingsOfInput[index].isEmpty, let presenter = presenters[index] else { return nil }
        return (presenter, bindingsOfInput[index])
    }
}
