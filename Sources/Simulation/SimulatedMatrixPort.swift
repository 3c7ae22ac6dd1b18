import DebounceCore
import EventLoop
import LineInput

/// A simulated keypad's lines: what its columns are driven to, and its rows as `SimulatedMatrix`'s
/// physics answers for that drive (ghost paths without diodes included). Its keys' switches are
/// scripted; a change of one is when a row may change (`nextChangeNs`), as a real row's edge. So is
/// driving every column again after a scan: a key closed after its column was read pulls its row
/// active then, and a real row's edge is stamped at that moment.
package final class SimulatedMatrixPort: MatrixPort {
    private let matrix: SimulatedMatrix
    private var current = MatrixDrive.all
    /// The latest key change taken (`takeChanges`), on the loop's clock.
    private var takenNs: Int64
    /// The wait (`takeChanges`' `notBeforeNs`) whose start was last looked at for rows already active.
    private var waitLookedAtNs: Int64 = .min

    /// The matrix `matrix`, its changes before `startNs` already past.
    package init(matrix: SimulatedMatrix, startNs: Int64) {
        self.matrix = matrix
        takenNs = startNs - 1
    }

    package var nextChangeNs: Int64? { matrix.nextChangeNs(after: takenNs) }

    package var isExhausted: Bool { nextChangeNs == nil }

    package func drive(_ drive: MatrixDrive) { current = drive }

    package func rowsDown(atNs timeNs: Int64) -> UInt32 { matrix.rowsDown(drive: current, atNs: timeNs) }

    package func takeChanges(byNs timeNs: Int64, notBeforeNs: Int64) -> Int64? {
        var earliest: Int64?
        // The scanner went waiting at `notBeforeNs` with every column driven: rows active then are an
        // edge then (a key that closed after its column's read, while its column was not driven).
        if notBeforeNs != waitLookedAtNs, notBeforeNs <= timeNs, current == .all {
            waitLookedAtNs = notBeforeNs
            if matrix.rowsDown(drive: .all, atNs: notBeforeNs) != 0 { earliest = notBeforeNs }
        }
        while let next = matrix.nextChangeNs(after: takenNs), next <= timeNs {
            takenNs = next
            if next >= notBeforeNs, earliest == nil { earliest = next }
        }
        return earliest
    }
}
