import DebounceCore
import LinuxSys
import SystemPackage

/// Where a run's raw edges come from: real pins (libgpiod line requests), simulated lines or a recorded
/// trace. A source
/// does I/O only when the loop asks: it never waits, never reads a clock, and never owns a loop.
///
/// Lines are numbered `0..<lineCount`. The loop polls `descriptors` (a real line request) and wakes at
/// `nextDueNs` (a simulated line's next edge), then asks the source for what is ready.
package protocol EdgeSource: AnyObject {
    /// How many lines.
    var lineCount: Int { get }
    /// Descriptors the loop polls for readability, owned by the source; `readReady(descriptor:...)` is
    /// called with the index of one that is ready.
    var descriptors: [FileDescriptor] { get }
    /// Whether `descriptors[descriptor]` is seldom ready and stays the same open file for as long as
    /// the source has it (a chip watch): the loop may then wait on it through one epoll descriptor with
    /// its other such descriptors, rather than directly (`EventLoop.inlinePollEntries`). Default: false.
    func isRarelyReady(descriptor: Int) -> Bool
    /// When the source next has an edge due, on the loop's clock (simulated lines); `nil` for real lines.
    var nextDueNs: Int64? { get }
    /// Whether the source will never deliver another edge (a simulated script ended).
    var isExhausted: Bool { get }
    /// Whether the run ends with the source's last edge (a recorded trace): then the stages' pending
    /// decisions are made as if time ran on and nothing is timed past it (`ButtonPipeline.finish`).
    /// Otherwise (simulated lines) time runs on until every stage has settled (a counter's falling rate
    /// is not waited for: `ButtonPipeline.nextDecisionDeadlineNs`).
    var endsAtLastEdge: Bool { get }
    /// The current raw level of `line` (an ioctl on real pins). Only read when it matters: at the
    /// start, and when edges may have been lost.
    func readLevel(line: Int) throws(LineError) -> Level
    /// Reads the events waiting on `descriptors[descriptor]` (one read of the event buffer), appending
    /// edges in time order per line and any evidence of lost events to `batch`.
    func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) throws(LineError)
    /// Appends every edge due by `timeNs` (simulated lines, recorded traces; real lines have none to
    /// add). Throws when the source cannot go on (a recorded trace's bad line): the run ends with the
    /// events decided before it.
    func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError)
    /// Events lost by the kernel on `line` so far, when the kernel counts them (sequence numbers on
    /// libgpiod 2; the simulated line); `nil` where it does not (libgpiod 1).
    func lostEvents(line: Int) -> Int?
    /// Runs the code its first edges will run, with no effect (no I/O, nothing kept): a live loop calls
    /// it before its first wait, as it rehearses the stages (`EventLoop.rehearse`). The default does nothing.
    func rehearse()
}

extension EdgeSource {
    package var descriptors: [FileDescriptor] { [] }
    package func isRarelyReady(descriptor: Int) -> Bool { false }
    package var nextDueNs: Int64? { nil }
    package var isExhausted: Bool { false }
    package var endsAtLastEdge: Bool { false }
    package func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) throws(LineError) {}
    package func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {}
    package func lostEvents(line: Int) -> Int? { nil }
    package func rehearse() {}
}

/// What one wakeup read from a source: edges, and the lines that may have lost some.
public struct EdgeBatch: Sendable {
    public var edges: [LineEdge] = []
    /// Lines with evidence of lost events, and how many when the kernel says.
    public var losses: [(line: Int, count: Int?)] = []
    /// Chips that went away or came back (a source that waits for vanished chips): rare, and empty on
    /// nearly every wakeup.
    public var availability: [ChipAvailability] = []

    public init() {
        edges.reserveCapacity(256)
    }

    /// Empties the batch, keeping its storage.
    @inlinable package mutating func removeAll() {
        edges.removeAllFromEnd()
        losses.removeAllFromEnd()
        if !availability.isEmpty { availability.removeAll(keepingCapacity: true) }
    }
}

extension Array {
    /// Empties the array and keeps its storage, removing from the end: a few instructions per element
    /// and none when empty, where `removeAll(keepingCapacity: true)` costs some 60 through the generic
    /// `replaceSubrange` even for one. For the loop's short arrays, emptied at every wakeup.
    @inlinable package mutating func removeAllFromEnd() {
        while !isEmpty { removeLast() }
    }
}
