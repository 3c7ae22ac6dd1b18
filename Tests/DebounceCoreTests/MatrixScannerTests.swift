import DebounceCore
import Testing

/// The scanner's timeline, call by call: waiting, edge-begun and periodic scans, their stamps, the
/// drained edges, and ghost resolution.
@Suite struct MatrixScannerTests {
    /// 2 rows × 3 columns, settle 10 µs, scans every 10 ms.
    static let configuration = MatrixConfiguration(rows: 2, columns: 3)
    static let settleNs: Int64 = 10_000
    static let intervalNs: Int64 = 10_000_000

    /// Runs the scan under way (its column 0 driven at `startNs`): each column's rows (`columnRows[c]`) read
    /// `readDelayNs` after its settle ends. Returns the scan's changes and the times the columns were read.
    static func completeScan(
        _ scanner: inout MatrixScanner, from startNs: Int64, columnRows: [UInt32], readDelayNs: Int64 = 100,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (changes: [MatrixKeyChange], readNs: [Int64]) {
        var changes: [MatrixKeyChange] = []
        var readTimes: [Int64] = []
        var driveNs = startNs
        for (column, rows) in columnRows.enumerated() {
            #expect(scanner.drive == .column(column), sourceLocation: sourceLocation)
            #expect(scanner.deadlineNs == driveNs + settleNs, sourceLocation: sourceLocation)
            // Not yet due: nothing changes.
            #expect(scanner.due(nowNs: driveNs + settleNs - 1) == .drive(.column(column)), sourceLocation: sourceLocation)
            let readNs = driveNs + settleNs + readDelayNs
            #expect(scanner.due(nowNs: readNs) == .readRows, sourceLocation: sourceLocation)
            let next = scanner.rowsRead(rows, nowNs: readNs, into: &changes)
            readTimes.append(readNs)
            if column + 1 < columnRows.count {
                #expect(next == .column(column + 1), sourceLocation: sourceLocation)
                #expect(changes.isEmpty, "changes only after the last column", sourceLocation: sourceLocation)
            } else {
                #expect(next == .all, sourceLocation: sourceLocation)
            }
            driveNs = readNs
        }
        return (changes, readTimes)
    }

    static func key(_ row: Int, _ column: Int) -> Int { configuration.key(row: row, column: column) }

    static func down(_ keys: Int...) -> [Bool] {
        (0..<configuration.keyCount).map { keys.contains($0) }
    }

    @Test func idleWaitsForAnEdgeWithNoDeadline() {
        var scanner = MatrixScanner(Self.configuration)
        #expect(scanner.isWaitingForEdge && scanner.drive == .all && scanner.deadlineNs == nil)
        #expect(scanner.keysDown == Self.down())
        // Nothing is due however late it is.
        #expect(scanner.due(nowNs: 1_000_000_000) == .drive(.all))
        #expect(scanner.isWaitingForEdge && scanner.deadlineNs == nil && scanner.scans == 0)
    }

    @Test func aRowEdgeBeginsAScanWhoseKeysAreStampedWithTheEdge() {
        var scanner = MatrixScanner(Self.configuration)
        // The edge at 1 ms, handled by the loop 0.3 ms later.
        #expect(scanner.rowEdge(atNs: 1_000_000, nowNs: 1_300_000) == .column(0))
        #expect(!scanner.isWaitingForEdge)
        // (0,1) and (1,2) down.
        let scan = Self.completeScan(&scanner, from: 1_300_000, columnRows: [0b00, 0b01, 0b10])
        #expect(
            scan.changes == [
                MatrixKeyChange(key: Self.key(0, 1), isDown: true, timeNs: 1_000_000),
                MatrixKeyChange(key: Self.key(1, 2), isDown: true, timeNs: 1_000_000),
            ])
        #expect(scanner.keysDown == Self.down(Self.key(0, 1), Self.key(1, 2)))
        #expect(scanner.scans == 1 && scanner.ambiguousScans == 0)
        // Keys down: the next scan 10 ms after this one began, every column driven meanwhile.
        #expect(scanner.drive == .all && !scanner.isWaitingForEdge)
        #expect(scanner.deadlineNs == 1_300_000 + Self.intervalNs)
    }

    @Test func periodicScansWhileDownThenReleasesAtTheirColumnsReadThenWaiting() {
        var scanner = MatrixScanner(Self.configuration)
        _ = scanner.rowEdge(atNs: 0, nowNs: 0)
        _ = Self.completeScan(&scanner, from: 0, columnRows: [0b01, 0b00, 0b10])
        #expect(scanner.keysDown == Self.down(Self.key(0, 0), Self.key(1, 2)))
        // Between scans: edges are drained, and nothing is due before the deadline.
        #expect(scanner.rowEdge(atNs: 5_000_000, nowNs: 5_000_000) == nil)
        #expect(scanner.due(nowNs: Self.intervalNs - 1) == .drive(.all))
        // The periodic scan: a late wakeup starts it at the loop's time.
        let secondNs = Self.intervalNs + 2_000
        #expect(scanner.due(nowNs: secondNs) == .drive(.column(0)))
        #expect(scanner.deadlineNs == secondNs + Self.settleNs)
        // (0,0) still down, (1,2) let go, (0,1) newly down: stamped at their columns' reads.
        let second = Self.completeScan(&scanner, from: secondNs, columnRows: [0b01, 0b01, 0b00])
        #expect(
            second.changes == [
                MatrixKeyChange(key: Self.key(0, 1), isDown: true, timeNs: second.readNs[1]),
                MatrixKeyChange(key: Self.key(1, 2), isDown: false, timeNs: second.readNs[2]),
            ])
        #expect(scanner.deadlineNs == secondNs + Self.intervalNs)
        // Everything let go: releases at their columns' reads, then waiting with no deadline.
        let thirdNs = secondNs + Self.intervalNs
        #expect(scanner.due(nowNs: thirdNs) == .drive(.column(0)))
        let third = Self.completeScan(&scanner, from: thirdNs, columnRows: [0, 0, 0])
        #expect(
            third.changes == [
                MatrixKeyChange(key: Self.key(0, 0), isDown: false, timeNs: third.readNs[0]),
                MatrixKeyChange(key: Self.key(0, 1), isDown: false, timeNs: third.readNs[1]),
            ])
        #expect(scanner.isWaitingForEdge && scanner.drive == .all && scanner.deadlineNs == nil)
        #expect(scanner.keysDown == Self.down() && scanner.scans == 3)
    }

    @Test func aScanLongerThanTheIntervalIsFollowedAfterOneSettle() {
        // 3 columns of 4 ms each outlast a 10 ms interval: the next scan comes one settle after this one.
        var scanner = MatrixScanner(MatrixConfiguration(rows: 2, columns: 3, settleNs: 4_000_000))
        _ = scanner.rowEdge(atNs: 0, nowNs: 0)
        var changes: [MatrixKeyChange] = []
        var nowNs: Int64 = 0
        for column in 0..<3 {
            nowNs += 4_000_000
            #expect(scanner.due(nowNs: nowNs) == .readRows)
            _ = scanner.rowsRead(column == 0 ? 1 : 0, nowNs: nowNs, into: &changes)
        }
        let endNs: Int64 = 12_000_000
        #expect(scanner.deadlineNs == endNs + 4_000_000)
    }

    @Test func edgesStampedBeforeTheScannerWentWaitingAreDrainedLaterOnesBeginAScan() {
        var scanner = MatrixScanner(Self.configuration)
        #expect(scanner.rowEdge(atNs: 100, nowNs: 100) == .column(0))
        // The scan's own edges (driving columns moves the rows) are drained.
        #expect(scanner.rowEdge(atNs: 200, nowNs: 200) == nil)
        let scan = Self.completeScan(&scanner, from: 100, columnRows: [0, 0, 0])
        #expect(scan.changes.isEmpty && scanner.isWaitingForEdge)
        let waitingSinceNs = scan.readNs[2]
        // Stamped before the scanner went waiting, handled after: drained, still waiting.
        #expect(scanner.rowEdge(atNs: waitingSinceNs - 1, nowNs: waitingSinceNs + 50) == nil)
        #expect(scanner.isWaitingForEdge && scanner.deadlineNs == nil)
        // Stamped at that instant (the drive back to every column): a scan.
        #expect(scanner.rowEdge(atNs: waitingSinceNs, nowNs: waitingSinceNs + 60) == .column(0))
        #expect(scanner.deadlineNs == waitingSinceNs + 60 + Self.settleNs)
    }

    @Test func withoutDiodesAGhostRectangleReportsNothingNewAndTakesReleases() {
        var scanner = MatrixScanner(Self.configuration)
        // (0,0), (0,1) and (0,2) down: one row, no rectangle.
        _ = scanner.rowEdge(atNs: 0, nowNs: 0)
        _ = Self.completeScan(&scanner, from: 0, columnRows: [0b01, 0b01, 0b01])
        #expect(scanner.keysDown == Self.down(Self.key(0, 0), Self.key(0, 1), Self.key(0, 2)))
        // (1,1) pressed: without diodes (0,0)-(0,1)-(1,1) make (1,0) read down too, and (0,2) let go.
        // Ambiguous: (0,2)'s release is taken, neither (1,1) nor the ghost (1,0) appears.
        _ = scanner.due(nowNs: Self.intervalNs)
        let ghost = Self.completeScan(&scanner, from: Self.intervalNs, columnRows: [0b11, 0b11, 0b00])
        #expect(ghost.changes == [MatrixKeyChange(key: Self.key(0, 2), isDown: false, timeNs: ghost.readNs[2])])
        #expect(scanner.keysDown == Self.down(Self.key(0, 0), Self.key(0, 1)))
        #expect(scanner.ambiguousScans == 1 && scanner.scans == 2)
        // (0,0) let go: (0,1) and (1,1) read exactly, and (1,1) appears at its column's read.
        _ = scanner.due(nowNs: 2 * Self.intervalNs)
        let exact = Self.completeScan(&scanner, from: 2 * Self.intervalNs, columnRows: [0b00, 0b11, 0b00])
        #expect(
            exact.changes == [
                MatrixKeyChange(key: Self.key(0, 0), isDown: false, timeNs: exact.readNs[0]),
                MatrixKeyChange(key: Self.key(1, 1), isDown: true, timeNs: exact.readNs[1]),
            ])
        #expect(scanner.ambiguousScans == 1)
    }

    @Test func aGhostRectangleFromNothingKeepsScanningUntilLetGo() {
        // Three corners pressed at once: the first scan is ambiguous and reports nothing, but its
        // rows read active, so the scanner scans on rather than wait for an edge that cannot come.
        var scanner = MatrixScanner(Self.configuration)
        _ = scanner.rowEdge(atNs: 0, nowNs: 0)
        let scan = Self.completeScan(&scanner, from: 0, columnRows: [0b11, 0b11, 0])
        #expect(scan.changes.isEmpty && scanner.keysDown == Self.down() && scanner.ambiguousScans == 1)
        #expect(!scanner.isWaitingForEdge && scanner.deadlineNs == Self.intervalNs)
    }

    /// A row's edge whose key was let go before its column was read: the scan names no key, reports
    /// nothing and is counted unnamed; a scan that names a key, a periodic scan, and an ambiguous scan
    /// are not.
    @Test func anEdgeWhoseScanNamesNoKeyIsCountedUnnamed() {
        var scanner = MatrixScanner(Self.configuration)
        _ = scanner.rowEdge(atNs: 1_000_000, nowNs: 6_000_000)
        let lost = Self.completeScan(&scanner, from: 6_000_000, columnRows: [0, 0, 0])
        #expect(lost.changes.isEmpty && scanner.keysDown == Self.down())
        #expect(scanner.scans == 1 && scanner.unnamedScans == 1 && scanner.ambiguousScans == 0)
        #expect(scanner.isWaitingForEdge && scanner.waitingSinceNs == lost.readNs[2])
        // The next key is named by its edge's scan, its periodic scans and the one that finds it up.
        let startNs: Int64 = 20_000_000
        _ = scanner.rowEdge(atNs: startNs, nowNs: startNs)
        _ = Self.completeScan(&scanner, from: startNs, columnRows: [0, 0b10, 0])
        _ = scanner.due(nowNs: startNs + Self.intervalNs)
        _ = Self.completeScan(&scanner, from: startNs + Self.intervalNs, columnRows: [0, 0, 0])
        #expect(scanner.scans == 3 && scanner.unnamedScans == 1 && scanner.isWaitingForEdge)
        // A ghost rectangle from nothing names no key either, but is counted ambiguous, not unnamed.
        var ghost = MatrixScanner(Self.configuration)
        _ = ghost.rowEdge(atNs: 0, nowNs: 0)
        _ = Self.completeScan(&ghost, from: 0, columnRows: [0b11, 0b11, 0])
        #expect(ghost.ambiguousScans == 1 && ghost.unnamedScans == 0)
    }

    @Test func withDiodesEveryCombinationReadsExactly() {
        // Every pair of combinations of the 6 keys, one scan after the other.
        let configuration = MatrixConfiguration(rows: 2, columns: 3, diodes: true)
        func columnRows(_ combination: Int) -> [UInt32] {
            (0..<3).map { column in
                UInt32((0..<2).reduce(0) { rows, row in combination & (1 << configuration.key(row: row, column: column)) != 0 ? rows | 1 << row : rows })
            }
        }
        for first in 1..<64 {
            for second in 0..<64 {
                var scanner = MatrixScanner(configuration)
                _ = scanner.rowEdge(atNs: 0, nowNs: 0)
                _ = Self.completeScan(&scanner, from: 0, columnRows: columnRows(first))
                #expect(scanner.keysDown == (0..<6).map { first & (1 << $0) != 0 })
                #expect(scanner.due(nowNs: Self.intervalNs) == .drive(.column(0)))
                let scan = Self.completeScan(&scanner, from: Self.intervalNs, columnRows: columnRows(second))
                #expect(scanner.keysDown == (0..<6).map { second & (1 << $0) != 0 })
                #expect(scan.changes.count == (first ^ second).nonzeroBitCount)
                #expect(scanner.ambiguousScans == 0)
            }
        }
    }

    @Test func withoutDiodesAReadingNoInstantGivesReportsNothingNew() {
        // (0,0), (0,1) down; (1,1) pressed: column 0 read with the ghost (1,0), then (0,1) let go before
        // column 1 is read. Columns 0 and 1 share row 1 but read differently: ambiguous, and the ghost
        // (1,0) does not appear.
        var scanner = MatrixScanner(Self.configuration)
        _ = scanner.rowEdge(atNs: 0, nowNs: 0)
        _ = Self.completeScan(&scanner, from: 0, columnRows: [0b01, 0b01, 0b00])
        _ = scanner.due(nowNs: Self.intervalNs)
        let skewed = Self.completeScan(&scanner, from: Self.intervalNs, columnRows: [0b11, 0b10, 0b00])
        #expect(skewed.changes == [MatrixKeyChange(key: Self.key(0, 1), isDown: false, timeNs: skewed.readNs[1])])
        #expect(scanner.keysDown == Self.down(Self.key(0, 0)) && scanner.ambiguousScans == 1)
    }

    @Test func withoutDiodesReadingsAreAmbiguousWhenColumnsSharingARowDiffer() {
        #expect(!MatrixScanner.isAmbiguousWithoutDiodes([0b01, 0b01, 0b10]))
        #expect(!MatrixScanner.isAmbiguousWithoutDiodes([0b011, 0, 0b100]))
        #expect(MatrixScanner.isAmbiguousWithoutDiodes([0b11, 0b11]))
        #expect(MatrixScanner.isAmbiguousWithoutDiodes([0b11, 0b10]))
        #expect(MatrixScanner.isAmbiguousWithoutDiodes([0b001, 0, 0b101]))
    }

    @Test func aGhostRectangleIsTwoColumnsSharingTwoRows() {
        #expect(!MatrixScanner.hasGhostRectangle([]))
        #expect(!MatrixScanner.hasGhostRectangle([0b111]))
        #expect(!MatrixScanner.hasGhostRectangle([0b011, 0b110, 0b101]))
        #expect(MatrixScanner.hasGhostRectangle([0b011, 0b100, 0b111]))
        #expect(MatrixScanner.hasGhostRectangle([0, 0b1010, 0, 0b1110]))
    }
}
