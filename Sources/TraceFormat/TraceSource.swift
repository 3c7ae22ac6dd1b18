import DebounceCore

/// A recorded trace read one edge at a time, whatever its format (`TraceReader` for the replay text
/// format, `VCDReader` for Value Change Dump). The first edge returned is the initial level.
public protocol TraceSource: AnyObject {
    /// How the trace is named in error messages: its path, or `<stdin>`.
    var sourceName: String { get }
    /// The next edge (the first one is the initial level), or `nil` at the end.
    func next() throws(TraceError) -> Edge?
}

extension TraceReader: TraceSource {}
