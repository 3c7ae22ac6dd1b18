import DebounceCore
import EventOutput
import SystemPackage

/// Writes edges in the replay text format (`t_ns,level` lines, or `t_ns,line,level` for several
/// lines), the format `TraceReader` reads.
public struct TraceWriter {
    public let output: OutputBuffer

    /// Starts a trace: `#` comment lines (one per element of `comments`), the header, the initial level.
    public init(output: OutputBuffer, comments: [String], initialLevel: Level, atNs timeNs: Int64) throws(Errno) {
        self.output = output
        try Self.writeComments(comments, to: output)
        output.append("t_ns,level")
        try output.endLine()
        try write(Edge(level: initialLevel, timeNs: timeNs))
    }

    /// Starts a trace of several lines (`t_ns,line,level`): `#` comment lines, the header, then each
    /// line's initial level at `timeNs`, line 0 first.
    public init(output: OutputBuffer, comments: [String], initialLevels: [Level], atNs timeNs: Int64) throws(Errno) {
        self.output = output
        try Self.writeComments(comments, to: output)
        output.append("t_ns,line,level")
        try output.endLine()
        for (line, level) in initialLevels.enumerated() { try write(Edge(level: level, timeNs: timeNs), line: line) }
    }

    private static func writeComments(_ comments: [String], to output: OutputBuffer) throws(Errno) {
        for comment in comments {
            output.append("# ")
            output.appendUTF8(comment)
            try output.endLine()
        }
    }

    /// Writes one edge.
    public func write(_ edge: Edge) throws(Errno) {
        output.append(edge.timeNs)
        output.append(edge.level == .low ? ",0" : ",1")
        try output.endLine()
    }

    /// Writes one edge of `line`, with the line column.
    public func write(_ edge: Edge, line: Int) throws(Errno) {
        output.append(edge.timeNs)
        output.append(",")
        output.append(Int64(line))
        output.append(edge.level == .low ? ",0" : ",1")
        try output.endLine()
    }
}
