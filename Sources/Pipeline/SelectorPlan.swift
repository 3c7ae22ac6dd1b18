import DebounceCore

/// A selector switch the pipeline decodes (`SelectorDecoder`): the indices of its lines among the
/// run's lines (its `lines[i]` is bit i of a reading), the level that reads active on them, and its
/// `SelectorConfiguration`. Its lines' own `LinePlan`s must be raw (`LinePlan.raw`): the decoder takes
/// every change itself, and its settle time outlasts their bounce.
public struct SelectorPlan: Sendable, Hashable {
    public var lines: [Int]
    public var activeLevel: ActiveLevel
    public var configuration: SelectorConfiguration
    /// The input it is (`OutputSource.input` of its outputs): its index in the run's one ordered list
    /// of inputs; nil: its index among the pipeline's selectors.
    public var input: Int?

    public init(lines: [Int], activeLevel: ActiveLevel = .activeLow, configuration: SelectorConfiguration, input: Int? = nil) {
        self.lines = lines
        self.activeLevel = activeLevel
        self.configuration = configuration
        self.input = input
    }
}
