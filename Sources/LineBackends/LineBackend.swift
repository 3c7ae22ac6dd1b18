import DebounceCore
import SystemPackage

/// A source of edges for one or more GPIO lines: real pins (libgpiod) or a simulated line.
///
/// A backend owns its clock: `nowNs` is in the same time base as its edges' timestamps
/// (`CLOCK_MONOTONIC` for a real line, virtual time for a simulated one). Lines are numbered
/// `0..<lineCount` in the order they were requested.
public protocol LineBackend {
    /// How many lines this backend watches.
    var lineCount: Int { get }

    /// The current time on the line's clock, in nanoseconds.
    var nowNs: Int64 { get }

    /// Reads the current raw level of line `line`.
    mutating func readLevel(line: Int) throws(LineError) -> Level

    /// Blocks until at least one edge is available or the clock reaches `deadlineNs` (`nil`: no deadline),
    /// never spinning. Appends the edges available (in time order per line) to `edges`.
    mutating func wait(untilNs deadlineNs: Int64?, appendingTo edges: inout [LineEdge]) throws(LineError) -> WaitOutcome
}

/// An edge on one of a backend's lines.
public struct LineEdge: Sendable, Hashable {
    /// Which line, `0..<lineCount`.
    public var line: Int
    public var edge: Edge

    public init(line: Int, edge: Edge) {
        self.line = line
        self.edge = edge
    }
}

/// Why `LineBackend.wait(untilNs:appendingTo:)` returned.
public enum WaitOutcome: Sendable, Hashable {
    /// Edges were appended.
    case edges
    /// The deadline came with no edge.
    case timedOut
    /// The line will produce no more edges (a simulated script ended) and there was no deadline.
    case endOfInput
    /// SIGINT or SIGTERM arrived: the caller should release the lines and exit.
    case interrupted
}

/// A failure of a line backend, saying what to do about it.
public enum LineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(operation: String, errno: Errno)
    /// The chip disappeared while watched (e.g. a USB GPIO expander was unplugged).
    case chipVanished(chip: String)

    public var description: String {
        switch self {
        case .chipVanished(let chip):
            "\(chip) vanished while being watched (unplugged, or its driver was unloaded); plug it back in and start again"
        case .system(let operation, let errno):
            "\(operation) failed: \(errno.description) (errno \(errno.rawValue))"
        }
    }
}
