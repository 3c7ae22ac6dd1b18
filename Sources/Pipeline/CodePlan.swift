import DebounceCore

/// A keypad's PIN entry as the pipeline runs it: the keys' lines, each with its character, whose
/// presses go to one `CodeCollector`; a code it completes is `PipelineOutput.code`.
public struct CodePlan: Sendable, Hashable {
    /// The keypad: its input (`OutputSource.input` of its codes), its index in the run's one ordered
    /// list of inputs.
    public var input: Int
    public var configuration: CodeConfiguration
    /// Each key's line and character.
    public var keys: [KeyLine]

    /// One key of the keypad: its line and its character.
    public struct KeyLine: Sendable, Hashable {
        public var line: Int
        public var key: Character

        public init(line: Int, key: Character) {
            self.line = line
            self.key = key
        }
    }

    public init(input: Int, configuration: CodeConfiguration, keys: [KeyLine]) {
        self.input = input
        self.configuration = configuration
        self.keys = keys
    }
}
