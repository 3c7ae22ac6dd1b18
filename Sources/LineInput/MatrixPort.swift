import DebounceCore
import LinuxSys
import SystemPackage

/// The lines of one matrix keypad, as its scan (`KeypadSource`) uses them: the columns it drives, the
/// rows it reads, and the rows' edges that start a scan. Real pins (`GPIODMatrixPort`: libgpiod
/// requests) or a simulated matrix (`SimulatedMatrixPort`). A port does I/O only when asked: it never
/// waits and never reads a clock.
package protocol MatrixPort: AnyObject {
    /// Descriptors the loop polls for the rows' edges (real pins); none for a simulated matrix.
    var descriptors: [FileDescriptor] { get }
    /// When a simulated matrix's keys next change, on the loop's clock (its rows may change then);
    /// nil for real pins, whose rows' edges come through `descriptors`.
    var nextChangeNs: Int64? { get }
    /// Whether a simulated matrix's keys will never change again; false for real pins.
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
    /// A simulated matrix's key changes due by `timeNs`, taken: the time of the earliest one at or
    /// after `notBeforeNs`, or nil.
    func takeChanges(byNs timeNs: Int64, notBeforeNs: Int64) -> Int64?
    /// Whether a chip that goes away is waited for (`checkChips`) rather than ending the run; false for a
    /// simulated matrix.
    var waitsForVanishedChips: Bool { get }
    /// Descriptors the loop polls whatever the scan does, for the chips going away and coming back (an
    /// inotify watch on `/dev`); none for a simulated matrix.
    var chipWatchDescriptors: [FileDescriptor] { get }
    /// Whether the lines are released, their chip gone: nothing may be driven or read.
    var isAway: Bool { get }
    /// After `chipWatchDescriptors` were readable, or a drive or read failed with `chipVanished`
    /// (`linesFailed`): lets go of the lines of a chip that is gone, and requests them again once their
    /// chips are back (every column driven, as a port starts). Returns what changed, in order (a chip
    /// may go and be back in one call); empty when nothing did.
    func checkChips(linesFailed: Bool) -> [MatrixPortAvailability]
}

/// A keypad's chip gone away (`isAvailable` false) or back, by its name (the rows' chip).
package struct MatrixPortAvailability: Sendable, Hashable {
    package var chip: String
    package var isAvailable: Bool

    package init(chip: String, isAvailable: Bool) {
        self.chip = chip
        self.isAvailable = isAvailable
    }
}

extension MatrixPort {
    package var descriptors: [FileDescriptor] { [] }
    package var nextChangeNs: Int64? { nil }
    package var isExhausted: Bool { false }
    package func readRowEdges(descriptor: Int, events: PollEvents, notBeforeNs: Int64) throws(LineError) -> Int64? { nil }
    package func takeChanges(byNs timeNs: Int64, notBeforeNs: Int64) -> Int64? { nil }
    package var waitsForVanishedChips: Bool { false }
    package var chipWatchDescriptors: [FileDescriptor] { [] }
    package var isAway: Bool { false }
    package func checkChips(linesFailed: Bool) -> [MatrixPortAvailability] { [] }
}
