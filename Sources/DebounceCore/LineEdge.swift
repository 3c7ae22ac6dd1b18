/// A raw edge on one of a run's lines.
public struct LineEdge: Sendable, Hashable {
    /// Which line, `0..<lineCount`, in the order the run's lines were given.
    public var line: Int
    public var edge: Edge

    public init(line: Int, edge: Edge) {
        self.line = line
        self.edge = edge
    }
}
