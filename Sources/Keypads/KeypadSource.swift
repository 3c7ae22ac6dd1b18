import DebounceCore
import EventLoop
import LinuxSys
import Pipeline
import SystemPackage

/// One matrix keypad as an `EdgeSource` whose lines are its keys (row by row): a `MatrixScanner`
/// decides what to drive and when to read, a `MatrixPort` drives and reads, and each change of a
/// key's state the scans find is an edge of its line (low: down), for the pipeline to debounce as a
/// button's.
///
/// While no key is down every column is driven and nothing is due: the loop waits on the rows'
/// descriptors alone, with no deadline (no wakeup while idle). A row's edge starts a scan on the next
/// `deliverDue` of the same wakeup, one column a step, each step a deadline `settleNs` later (the
/// settle is slept through in the loop's one wait, never spun); while a key is down a scan starts every
/// `scanIntervalNs`. The rows' edges a scan causes are read and dropped.
package final class KeypadSource: EdgeSource {
    package let port: any MatrixPort
    private(set) var scanner: MatrixScanner
    /// The earliest row edge read since the last `deliverDue`, not yet handed to the scanner.
    private var pendingEdgeNs: Int64?
    /// The scan's key changes, kept for reuse (one array for the run).
    private var changes: [MatrixKeyChange] = []

    /// A keypad of `configuration` on `port`, whose columns are all driven (waiting for a key) as
    /// a port starts.
    package init(configuration: MatrixConfiguration, port: any MatrixPort) {
        self.port = port
        scanner = MatrixScanner(configuration)
        changes.reserveCapacity(configuration.keyCount)
    }

    /// A simulated keypad whose typing is over, with no scan under way.
    package var isExhausted: Bool { port.isExhausted && pendingEdgeNs == nil && scanner.deadlineNs == nil }

    package var lineCount: Int { scanner.configuration.keyCount }
    package var descriptors: [FileDescriptor] { port.descriptors }

    /// The scan's next step, a row edge waiting to start one (now), or a simulated contact's change.
    package var nextDueNs: Int64? {
        var due = scanner.deadlineNs
        if let pendingEdgeNs { due = min(due ?? pendingEdgeNs, pendingEdgeNs) }
        if let changeNs = port.nextChangeNs { due = min(due ?? changeNs, changeNs) }
        return due
    }

    /// A key's state as the scans last found it: low while down.
    package func readLevel(line: Int) throws(LineError) -> Level { scanner.keysDown[line] ? .low : .high }

    /// How many scans were made, and how many of them were ambiguous (a ghost rectangle, no diodes).
    package var scans: (all: Int, ambiguous: Int) { (scanner.scans, scanner.ambiguousScans) }

    package func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) throws(LineError) {
        guard let edgeNs = try port.readRowEdges(descriptor: descriptor, events: events) else { return }
        pendingEdgeNs = min(pendingEdgeNs ?? edgeNs, edgeNs)
    }

    /// The scan's steps due by `timeNs` (the loop's time): a row edge starts a scan, a settle that is
    /// over reads the rows and drives the next column, a scan's interval that is over starts the next
    /// one. A completed scan's key changes go to `batch` as edges of the keys' lines.
    package func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {
        if let changeNs = port.takeChanges(byNs: timeNs) { pendingEdgeNs = min(pendingEdgeNs ?? changeNs, changeNs) }
        if let edgeNs = pendingEdgeNs {
            pendingEdgeNs = nil
            if let drive = scanner.rowEdge(atNs: edgeNs, nowNs: timeNs) { try port.drive(drive) }
        }
        while let deadlineNs = scanner.deadlineNs, deadlineNs <= timeNs {
            switch scanner.due(nowNs: timeNs) {
            case .drive(let drive):
                try port.drive(drive)
            case .readRows:
                let rows = try port.rowsDown(atNs: timeNs)
                let next = scanner.rowsRead(rows, nowNs: timeNs, into: &changes)
                try port.drive(next)
                for change in changes {
                    batch.edges.append(LineEdge(line: change.key, edge: Edge(level: change.isDown ? .low : .high, timeNs: change.timeNs)))
                }
                changes.removeAll(keepingCapacity: true)
            }
        }
    }
}
