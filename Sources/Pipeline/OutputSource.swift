/// Which input an output is of, and which of its lines: the one identity a sink keys its tables by.
/// Eight bytes, so `PipelineOutput` stays 64 bytes a value.
public struct OutputSource: Sendable, Hashable {
    /// The input: its index in the run's one ordered list of inputs (the daemon's roster). A plan made
    /// without a roster (`watch`, `replay`, the library) numbers its inputs itself.
    public var input: Int32
    /// The run line concerned (an encoder's line A for its detents and resets).
    public var line: Int32

    public init(input: Int, line: Int) {
        self.input = Int32(truncatingIfNeeded: input)
        self.line = Int32(truncatingIfNeeded: line)
    }

    /// Line `index` as an input of its own: what a line's outputs name when its plan gives no input
    /// (`LinePlan.input` nil).
    public static func line(_ index: Int) -> OutputSource { OutputSource(input: index, line: index) }

    /// `input` as an index.
    @inlinable public var inputIndex: Int { Int(input) }
    /// `line` as an index.
    @inlinable public var lineIndex: Int { Int(line) }
}
