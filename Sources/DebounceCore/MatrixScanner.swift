/// The scanning state machine of a key matrix: row edges, deadlines and row readings in, which
/// columns to drive and the keys found down or up out. It never reads a clock, never sleeps and
/// touches no line: like swift-async-algorithms' `DebounceStateMachine`, every call returns what its
/// adapter does next.
///
/// The cycle (times in nanoseconds of `CLOCK_MONOTONIC`):
/// 1. Waiting: every column driven (`.all`), no deadline. A key pressed pulls its row active; the
///    adapter passes that row edge to `rowEdge(atNs:nowNs:)`, which begins a scan.
/// 2. A scan: one column at a time, `.column(0)` first. After `settleNs` (`deadlineNs`), `due(nowNs:)`
///    says `.readRows`; the adapter reads the rows and passes them to `rowsRead(_:nowNs:into:)`,
///    which returns the next column to drive, and after the last one `.all` with the scan's key changes.
/// 3. While any key reads down, the next scan begins `scanIntervalNs` after this one began (`due(nowNs:)`
///    says `.drive(.column(0))`); once a scan reads no key down, the scanner waits again.
///
/// Driving columns moves the rows, so a scan makes row edges of its own: `rowEdge` drains every edge
/// that arrives while a scan or the wait between scans is under way, and every edge stamped before the
/// scanner went waiting, and begins a scan only for an edge stamped at or after that.
///
/// The key changes are raw readings: a key that bounces may be found down and up again. A debouncer per
/// key (`Debouncer`, its edges `MatrixKeyChange`s, level `.low` for down) with a window of a few scan
/// intervals turns them into presses and releases.
///
/// Ghosts: without diodes, a driven column reaches rows through closed keys of the undriven
/// (high-impedance) columns, so three corners of a rectangle held make the fourth read down too. A
/// reading with any rectangle (rows r≠s and columns c≠d with all four of (r,c), (r,d), (s,c), (s,d)
/// down) is ambiguous, and so is one that no instant gives (two columns sharing a row but reading
/// different rows: keys moved between their reads, `isAmbiguousWithoutDiodes(_:)`). From an ambiguous
/// reading the keys reported down become those both already down and read down (releases are taken,
/// nothing new appears), and `ambiguousScans` counts it. With diodes, the reading is the state.
///
/// Memory is O(keys); a scan allocates nothing once its buffers exist.
public struct MatrixScanner: Sendable {
    /// What to do at `deadlineNs`.
    public enum Step: Sendable, Hashable {
        /// The settle is over: read the rows and pass them to `rowsRead(_:nowNs:into:)`.
        case readRows
        /// A periodic scan began: set this drive (`.column(0)`); `deadlineNs` is now plus `settleNs`.
        /// Also returned, with the current drive, when nothing is due (the adapter changes nothing).
        case drive(MatrixDrive)
    }

    /// The matrix and its timing.
    public let configuration: MatrixConfiguration
    /// The columns the adapter must have driven: `.all` at the start.
    public private(set) var drive: MatrixDrive = .all
    /// When `due(nowNs:)` must be called, in nanoseconds; `nil` while waiting for a row edge.
    public private(set) var deadlineNs: Int64?
    /// The reported state, one entry per key (`true`: down), after ghost resolution.
    public private(set) var keysDown: [Bool]
    /// How many scans completed.
    public private(set) var scans = 0
    /// How many completed scans read an ambiguous reading: a ghost rectangle, or keys moved mid-scan
    /// (only without diodes).
    public private(set) var ambiguousScans = 0
    /// How many completed scans a row edge began that named no key: not ambiguous, and no key newly
    /// down (a key let go before the scan read its column, as on a loaded machine, or a key's bounce
    /// after the scan before had read it up). The edge's key, if any, is not reported.
    public private(set) var unnamedScans = 0

    /// Where the cycle is.
    private enum Phase: Sendable {
        /// No key reads down, every column is driven, no deadline; since `sinceNs`.
        case waiting(sinceNs: Int64)
        /// `column` is driven; its rows are read at the deadline.
        case scanning(column: Int)
        /// Keys read down; every column is driven until the next scan at the deadline.
        case betweenScans
    }

    private var phase: Phase = .waiting(sinceNs: .min)
    /// The rows the scan under way read for each column so far (bit r: row r active).
    private var columnRows: [UInt32]
    /// When each column's rows were read in the scan under way, in nanoseconds.
    private var columnReadNs: [Int64]
    /// When the scan under way began, in nanoseconds.
    private var scanStartNs: Int64 = 0
    /// The time of the row edge that began the scan under way; `nil` for a periodic scan.
    private var scanEdgeNs: Int64?
    /// The rows scanned: `configuration.rows`, within 0...32 (the bits of a reading).
    private let rowCount: Int
    /// The columns scanned: `configuration.columns`, at least 0.
    private let columnCount: Int

    /// A scanner waiting for a row edge with every column driven and no key down.
    public init(_ configuration: MatrixConfiguration) {
        self.configuration = configuration
        rowCount = min(max(configuration.rows, 0), UInt32.bitWidth)
        columnCount = max(configuration.columns, 0)
        keysDown = Array(repeating: false, count: rowCount * columnCount)
        columnRows = Array(repeating: 0, count: columnCount)
        columnReadNs = Array(repeating: 0, count: columnCount)
    }

    /// Whether the scanner waits for a row edge: no key reads down, every column is driven, and there
    /// is no deadline.
    public var isWaitingForEdge: Bool {
        if case .waiting = phase { return true }
        return false
    }

    /// While waiting, since when in nanoseconds (`Int64.min` before the first scan): only a row edge
    /// stamped at or after it begins a scan. `nil` while a scan, or the wait between two, is under way.
    public var waitingSinceNs: Int64? {
        if case .waiting(let sinceNs) = phase { return sinceNs }
        return nil
    }

    /// A row changed: `edgeNs` is the kernel's timestamp of the edge, `nowNs` the loop's time, both in
    /// nanoseconds. While waiting, an edge stamped at or after the time the scanner went waiting begins
    /// a scan: returns `.column(0)` (to drive), `deadlineNs` becomes `nowNs + settleNs`, and the keys this
    /// scan finds newly down are stamped `edgeNs`. Otherwise (a scan's own edges, an edge stamped before
    /// the scanner went waiting, an edge between scans) returns `nil`: the edge is drained.
    public mutating func rowEdge(atNs edgeNs: Int64, nowNs: Int64) -> MatrixDrive? {
        guard case .waiting(let sinceNs) = phase, edgeNs >= sinceNs, columnCount > 0, rowCount > 0 else { return nil }
        scanEdgeNs = edgeNs
        return beginScan(atNs: nowNs)
    }

    /// What the adapter does at `deadlineNs`, called with the loop's time `nowNs` (nanoseconds):
    /// `.readRows` while a column settles, `.drive(.column(0))` when the next periodic scan begins
    /// (`deadlineNs` becomes `nowNs + settleNs`). Before the deadline, or while waiting, nothing is
    /// due: returns `.drive(drive)`, the drive already set.
    public mutating func due(nowNs: Int64) -> Step {
        guard let deadlineNs, nowNs >= deadlineNs else { return .drive(drive) }
        switch phase {
        case .waiting:
            return .drive(drive)
        case .scanning:
            return .readRows
        case .betweenScans:
            scanEdgeNs = nil
            return .drive(beginScan(atNs: nowNs))
        }
    }

    /// The rows read for the driven column at `nowNs` (nanoseconds): bit r set means row r reads active
    /// (a key connects it to the driven column); bits past the last row are ignored. Returns the next
    /// drive: `.column(k + 1)` (`deadlineNs` now plus `settleNs`), or after the last column `.all`,
    /// appending the scan's key changes to `changes` in time order (a key found down in a scan an edge
    /// began is stamped with that edge's time, every other change with the time its column was read).
    ///
    /// After the last column: if any key reads down (reported or not: a ghost rectangle's keys stay
    /// scanned until they are let go), the next scan is due `scanIntervalNs` after this one began, at
    /// least `nowNs + settleNs`; otherwise the scanner waits for a row edge, since `nowNs`.
    /// Called with no column settling, it changes nothing and returns the drive already set.
    public mutating func rowsRead(_ rowsDown: UInt32, nowNs: Int64, into changes: inout [MatrixKeyChange]) -> MatrixDrive {
        guard case .scanning(let column) = phase else { return drive }
        let rowMask: UInt32 = rowCount == UInt32.bitWidth ? .max : (1 << UInt32(rowCount)) - 1
        columnRows[column] = rowsDown & rowMask
        columnReadNs[column] = nowNs
        if column + 1 < columnCount {
            return driveColumn(column + 1, atNs: nowNs)
        }
        finishScan(into: &changes)
        drive = .all
        if columnRows.contains(where: { $0 != 0 }) {
            phase = .betweenScans
            deadlineNs = max(scanStartNs.adding(durationNs: configuration.scanIntervalNs), nowNs.adding(durationNs: configuration.settleNs))
        } else {
            phase = .waiting(sinceNs: nowNs)
            deadlineNs = nil
        }
        return .all
    }

    /// Drops the scan under way, if any, and makes a scan due at `nowNs` (nanoseconds), every column
    /// driven meanwhile (`drive` `.all`, as a port's lines are requested): for lines requested
    /// again (a reload that kept the keypad, its chip come back). That scan compares its reading with
    /// `keysDown`, which stands: a key let go meanwhile is released, a key held is still down, a key
    /// pressed meanwhile (its row's edge was never seen) is found, stamped with its column's read.
    public mutating func scanAgain(atNs nowNs: Int64) {
        phase = .betweenScans
        drive = .all
        scanEdgeNs = nil
        deadlineNs = nowNs
    }

    // MARK: - Scanning

    /// Begins a scan at `nowNs` (`scanEdgeNs` already set): drives column 0.
    private mutating func beginScan(atNs nowNs: Int64) -> MatrixDrive {
        scanStartNs = nowNs
        return driveColumn(0, atNs: nowNs)
    }

    /// Drives `column` alone from `nowNs`; its rows are due after the settle.
    private mutating func driveColumn(_ column: Int, atNs nowNs: Int64) -> MatrixDrive {
        phase = .scanning(column: column)
        drive = .column(column)
        deadlineNs = nowNs.adding(durationNs: configuration.settleNs)
        return drive
    }

    /// Turns the scan's reading into the reported state, appending the changes in time order: the keys
    /// stamped with the scan's edge first, then column by column in the order they were read.
    private mutating func finishScan(into changes: inout [MatrixKeyChange]) {
        scans += 1
        let ambiguous = !configuration.diodes && Self.isAmbiguousWithoutDiodes(columnRows)
        if ambiguous { ambiguousScans += 1 }
        if let edgeNs = scanEdgeNs {
            var named = false
            for column in 0..<columnCount {
                for row in 0..<rowCount where isNewlyDown(row: row, column: column, ambiguous: ambiguous) {
                    let key = configuration.key(row: row, column: column)
                    keysDown[key] = true
                    named = true
                    changes.append(MatrixKeyChange(key: key, isDown: true, timeNs: edgeNs))
                }
            }
            if !named, !ambiguous { unnamedScans += 1 }
        }
        for column in 0..<columnCount {
            for row in 0..<rowCount {
                let key = configuration.key(row: row, column: column)
                let read = columnRows[column] & (1 << UInt32(row)) != 0
                // Ambiguous: previous ∩ reading (a key read up is released, no key appears).
                let isDown = ambiguous ? keysDown[key] && read : read
                guard isDown != keysDown[key] else { continue }
                keysDown[key] = isDown
                changes.append(MatrixKeyChange(key: key, isDown: isDown, timeNs: columnReadNs[column]))
            }
        }
    }

    /// Whether the key at `row`, `column` reads down, was not down, and may appear (the reading is
    /// not ambiguous).
    private func isNewlyDown(row: Int, column: Int, ambiguous: Bool) -> Bool {
        !ambiguous && columnRows[column] & (1 << UInt32(row)) != 0 && !keysDown[configuration.key(row: row, column: column)]
    }
}
