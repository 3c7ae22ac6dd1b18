import DebounceCore
import LineInput
import LinuxSys
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
/// `scanIntervalNs`. Meanwhile the rows are not polled (`descriptors` has none of them): the edges a scan
/// makes on them wake nothing, and are read and dropped when the scanner waits again.
///
/// A port that waits for a vanished chip (`MatrixPort.waitsForVanishedChips`, the daemon's) has a chip
/// watch, polled whatever the scan does. When the chip goes away (the watch, or a scan's drive or read
/// failing with `chipVanished`) its lines are released, the keys are unavailable
/// (`EdgeBatch.availability`), nothing is scanned and the keys' state stands; when it is back and
/// requested again, a scan starts at once (`MatrixScanner.scanAgain`), from that state: a key let go
/// meanwhile is released, a key held is still down.
package final class KeypadSource: EdgeSource {
    package let port: any MatrixPort
    // The stored properties a scan's every step reads or writes are marked `@exclusivity(unchecked)`,
    // as `GPIODLines`' are: this object is used from the loop's thread only and never hands out
    // overlapping accesses, and the runtime's dynamic checks were some 15 % of a key press's
    // instructions (docs/performance-inputs.md).
    @exclusivity(unchecked) package private(set) var scanner: MatrixScanner
    /// The earliest row edge read since the last `deliverDue`, not yet handed to the scanner.
    @exclusivity(unchecked) private var pendingEdgeNs: Int64?
    /// The scan's key changes, kept for reuse (one array for the run).
    @exclusivity(unchecked) private var changes: [MatrixKeyChange] = []
    /// The descriptors polled: the port's chip watch alone, and with the rows' (while waiting for an
    /// edge), made when the port's lines change so that the loop's look at them allocates nothing.
    @exclusivity(unchecked) private var watchDescriptors: [FileDescriptor]
    @exclusivity(unchecked) private var watchAndRowDescriptors: [FileDescriptor]
    /// The port's lines were requested again (their chip came back): a scan starts at the next `deliverDue`.
    @exclusivity(unchecked) private var rescanDue = false

    /// A keypad of `configuration` on `port`, whose columns are all driven (waiting for a key) as
    /// a port starts.
    package init(configuration: MatrixConfiguration, port: any MatrixPort) {
        self.port = port
        scanner = MatrixScanner(configuration)
        watchDescriptors = port.chipWatchDescriptors
        watchAndRowDescriptors = port.chipWatchDescriptors + port.descriptors
        changes.reserveCapacity(configuration.keyCount)
    }

    /// Goes on from `previous`, the scanner of the same keypad whose lines were requested before (a
    /// reload that kept it): its keys' state and counts stand, and a scan is due at `nowNs` (the loop's
    /// time, `MatrixScanner.scanAgain`), which releases a key let go meanwhile and finds a key pressed
    /// meanwhile.
    package func goOn(from previous: MatrixScanner, atNs nowNs: Int64) {
        guard previous.configuration == scanner.configuration else { return }
        scanner = previous
        scanner.scanAgain(atNs: nowNs)
        pendingEdgeNs = nil
    }

    /// A simulated keypad whose typing is over, with no scan under way.
    package var isExhausted: Bool { port.isExhausted && pendingEdgeNs == nil && scanner.deadlineNs == nil }

    package var lineCount: Int { scanner.configuration.keyCount }
    /// The port's chip watch, and the rows' descriptors while the scanner waits for an edge (none while
    /// it scans, or while the chip is away).
    package var descriptors: [FileDescriptor] { scanner.isWaitingForEdge && !port.isAway ? watchAndRowDescriptors : watchDescriptors }
    /// The chip watch, first in `descriptors`.
    package func isRarelyReady(descriptor: Int) -> Bool { descriptor < watchDescriptors.count }

    /// Whether the keypad's chip is away: its keys are unavailable.
    package var isAway: Bool { port.isAway }

    /// The scan's next step; while waiting, a row edge waiting to start one (now), or a simulated
    /// key's change; none while the chip is away.
    package var nextDueNs: Int64? {
        if port.isAway { return nil }
        if let deadlineNs = scanner.deadlineNs { return deadlineNs }
        if let pendingEdgeNs { return pendingEdgeNs }
        return port.nextChangeNs
    }

    /// A key's state as the scans last found it: low while down.
    package func readLevel(line: Int) throws(LineError) -> Level { scanner.keysDown[line] ? .low : .high }

    /// How many scans were made, how many of them were ambiguous (a ghost rectangle, no diodes), and how
    /// many a row edge began that named no key (`MatrixScanner.unnamedScans`).
    package var scans: (all: Int, ambiguous: Int, unnamed: Int) { (scanner.scans, scanner.ambiguousScans, scanner.unnamedScans) }

    /// The scans' counts for a person: `12 scans, 0 ambiguous (ghost keys, not reported), 1 unnamed (a
    /// key let go before its scan read it, or a bounce: not reported)`.
    package var scanSummary: String {
        let (all, ambiguous, unnamed) = scans
        return "\(counted(all, "scan")), \(ambiguous) ambiguous (ghost keys, not reported), \(unnamed) unnamed (a key let go before its scan read it, or a bounce: not reported)"
    }

    /// A copy of the scanner through a scan that finds a key down, the scans while it is, and the one
    /// that finds it up; nothing is driven or read, and the copy is dropped.
    package func rehearse() {
        var scanner = self.scanner
        var changes: [MatrixKeyChange] = []
        var nowNs: Int64 = 0
        guard scanner.rowEdge(atNs: nowNs, nowNs: nowNs) != nil else { return }
        for down in [UInt32(1), 1, 0] {
            for _ in 0..<(scanner.configuration.columns + 1) {
                guard let deadlineNs = scanner.deadlineNs else { break }
                nowNs = deadlineNs
                if case .readRows = scanner.due(nowNs: nowNs) { _ = scanner.rowsRead(down, nowNs: nowNs, into: &changes) }
            }
        }
    }

    /// The chip watch's notices (`checkChips`), or the rows' edges. A read that fails with
    /// `chipVanished` (a removed chip's request polls readable) lets go of the lines when the port
    /// waits for its chip.
    package func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) throws(LineError) {
        if descriptor < watchDescriptors.count {
            checkChips(linesFailed: false, into: &batch)
        } else if !port.isAway {
            do throws(LineError) {
                try readRows(descriptor: descriptor - watchDescriptors.count, events: events)
            } catch {
                guard case .chipVanished = error, port.waitsForVanishedChips else { throw error }
                checkChips(linesFailed: true, into: &batch)
            }
        }
    }

    /// Reads the rows' edges waiting on the port's `descriptor`: the earliest one since the scanner went
    /// waiting is kept to start a scan.
    private func readRows(descriptor: Int, events: PollEvents) throws(LineError) {
        guard let edgeNs = try port.readRowEdges(descriptor: descriptor, events: events, notBeforeNs: scanner.waitingSinceNs ?? .max) else { return }
        pendingEdgeNs = min(pendingEdgeNs ?? edgeNs, edgeNs)
    }

    /// The scan's steps due by `timeNs` (the loop's time): a row edge starts a scan, a settle that is
    /// over reads the rows and drives the next column, a scan's interval that is over starts the next
    /// one. A completed scan's key changes go to `batch` as edges of the keys' lines.
    /// While the chip is away, nothing; once it is back, a scan starts now (`rescanDue`). A drive or
    /// read that fails with `chipVanished` lets go of the lines when the port waits for its chip.
    package func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {
        guard !port.isAway else { return }
        if rescanDue {
            rescanDue = false
            scanner.scanAgain(atNs: timeNs)
        }
        do throws(LineError) {
            try scan(byNs: timeNs, into: &batch)
        } catch {
            guard case .chipVanished = error, port.waitsForVanishedChips else { throw error }
            checkChips(linesFailed: true, into: &batch)
        }
    }

    /// The port's chips gone or back (`MatrixPort.checkChips`), as the keys' availability in `batch`.
    private func checkChips(linesFailed: Bool, into batch: inout EdgeBatch) {
        for change in port.checkChips(linesFailed: linesFailed) {
            batch.availability.append(ChipAvailability(chip: change.chip, lines: Array(0..<lineCount), isAvailable: change.isAvailable))
            rescanDue = change.isAvailable
        }
        pendingEdgeNs = nil
        watchAndRowDescriptors = watchDescriptors + port.descriptors
    }

    /// The scan's steps due by `timeNs`.
    private func scan(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {
        try startScan(byNs: timeNs)
        while let deadlineNs = scanner.deadlineNs, deadlineNs <= timeNs {
            switch scanner.due(nowNs: timeNs) {
            case .drive(let drive):
                try port.drive(drive)
            case .readRows:
                let rows = try port.rowsDown(atNs: timeNs)
                let next = scanner.rowsRead(rows, nowNs: timeNs, into: &changes)
                for change in changes {
                    batch.edges.append(LineEdge(line: change.key, edge: Edge(level: change.isDown ? .low : .high, timeNs: change.timeNs)))
                }
                changes.removeAll(keepingCapacity: true)
                try port.drive(next)
                // Waiting again: the edges that came while the rows were not polled are read now (those
                // stamped since then, from a key that came down as the columns were all driven
                // again, start the next scan).
                if scanner.isWaitingForEdge {
                    for descriptor in port.descriptors.indices { try readRows(descriptor: descriptor, events: PollEvents(rawValue: 0)) }
                    try startScan(byNs: timeNs)
                }
            }
        }
    }

    /// Starts a scan for the row edge or simulated key change waiting, if any, at `timeNs`.
    private func startScan(byNs timeNs: Int64) throws(LineError) {
        if let notBeforeNs = scanner.waitingSinceNs, let changeNs = port.takeChanges(byNs: timeNs, notBeforeNs: notBeforeNs) {
            pendingEdgeNs = min(pendingEdgeNs ?? changeNs, changeNs)
        }
        guard let edgeNs = pendingEdgeNs else { return }
        pendingEdgeNs = nil
        if let drive = scanner.rowEdge(atNs: edgeNs, nowNs: timeNs) { try port.drive(drive) }
    }
}
