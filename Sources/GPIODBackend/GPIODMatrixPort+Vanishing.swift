#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LineInput
import LinuxSys
import SystemPackage

/// A keypad's chip that goes away and comes back while watched (`waitsForVanishedChips`).
extension GPIODMatrixPort {
    package var chipWatchDescriptors: [FileDescriptor] { chipWatch.map { [$0.descriptor] } ?? [] }

    package var waitsForVanishedChips: Bool { chipWatch != nil }

    package var isAway: Bool { rows == nil }

    /// Lets go of the lines if a chip is gone (`linesFailed`: a drive or read failed with
    /// `chipVanished`, which a chip removed and added again between two looks at `/dev` also gives),
    /// then requests them again if every chip is back: at its path, or another with the same label and
    /// line count (`GPIOChip.cameBack`). When a chip is back but cannot be requested yet (udev has not
    /// given it its group), the next change in `/dev` tries again.
    package func checkChips(linesFailed: Bool) -> [MatrixPortAvailability] {
        chipWatch?.drain()
        var changes: [MatrixPortAvailability] = []
        if !isAway, linesFailed || (rowLines + columnLines).contains(where: { access($0.chip.path, F_OK) != 0 }) {
            changes.append(MatrixPortAvailability(chip: rowLines[0].chip.name, isAvailable: false))
            release(chipGone: true)
        }
        guard isAway, let rowChip = GPIOChip.cameBack(rowLines[0].chip) else { return changes }
        let columnChip = columnLines[0].chip === rowLines[0].chip ? rowChip : GPIOChip.cameBack(columnLines[0].chip, excluding: [rowChip.path])
        guard let columnChip else { return changes }
        let (rowsBefore, columnsBefore) = (rowLines, columnLines)
        for index in rowLines.indices { rowLines[index].chip = rowChip }
        for index in columnLines.indices { columnLines[index].chip = columnChip }
        do throws(GPIOError) {
            try request()
        } catch {
            (rowLines, columnLines) = (rowsBefore, columnsBefore)
            return changes
        }
        changes.append(MatrixPortAvailability(chip: rowChip.name, isAvailable: true))
        return changes
    }
}
