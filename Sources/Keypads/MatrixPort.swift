import DebounceCore
import EventLoop
import LinuxSys
import SystemPackage

/// The lines of one matrix keypad, as its scan (`KeypadSource`) uses them: the columns it drives, the
/// rows it reads, and the rows' edges that start a scan. Real pins (`GPIODMatrixPort`: libgpiod
/// requests) or a simulated matrix (`SimulatedMatrixPort`). A port does I/O only when asked: it never
/// waits and never reads a clock.
package protocol MatrixPort: AnyObject {
    /// Descriptors the loop polls for the rows' edges (real pins); none for a simulated matrix.
    var descriptors: [FileDescriptor] { get }
    /// When a simulated matrix's contacts next change, on the loop's clock (its rows may change then);
    /// nil for real pins, whose rows' edges come through `descriptors`.
    var nextChangeNs: Int64? { get }
    /// Whether a simulated matrix's contacts will never change again; false for real pins.
    var isExhausted: Bool { get }
    /// Sets the columns: one driven active (low), the others high impedance; or all driven.
    func drive(_ drive: MatrixDrive) throws(LineError)
    /// The rows that read active (low: a closed key joins them to a driven column) at `timeNs` (the
    /// loop's time, which a simulated matrix needs), bit `r` for row `r`.
    func rowsDown(atNs timeNs: Int64) throws(LineError) -> UInt32
    /// Reads every row edge waiting on `descriptors[descriptor]` and returns the kernel timestamp (in
    /// nanoseconds) of the earliest one stamped at or after `notBeforeNs`, or nil when none was: edges
    /// before it (a scan's own) are read and dropped.
    func readRowEdges(descriptor: Int, events: PollEvents, notBeforeNs: Int64) throws(LineError) -> Int64?
    /// A simulated matrix's contact changes due by `timeNs`, taken: the time of the earliest one at or
    /// after `notBeforeNs`, or nil.
    func takeChanges(byNs timeNs: Int64, notBeforeNs: Int64) -> Int64?
}

extension MatrixPort {
    package var descriptors: [FileDescriptor] { [] }
    package var nextChangeNs: Int64? { nil }
    package var isExhausted: Bool { false }
    package func readRowEdges(descriptor: Int, events: PollEvents, notBeforeNs: Int64) throws(LineError) -> Int64? { nil }
    package func takeChanges(byNs timeNs: Int64, notBeforeNs: Int64) -> Int64? { nil }
}
