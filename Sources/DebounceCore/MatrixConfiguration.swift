/// A key matrix (a keypad): `rows` row lines read as inputs, `columns` column lines driven as outputs,
/// a key at every crossing, and how fast it is scanned.
///
/// Key numbers run row by row: key `row * columns + column`, so a 4×3 phone keypad's keys are 0...11.
/// Times are in nanoseconds.
public struct MatrixConfiguration: Sendable, Hashable {
    /// The row and column counts a matrix may have: rows are read into the bits of a `UInt32`, and
    /// a reader of a configuration checks both counts against this range.
    public static let lineCountRange = 1...16
    /// The settle times a matrix may have, in nanoseconds: 1 µs to 100 ms.
    public static let settleRangeNs: ClosedRange<Int64> = 1_000...100_000_000
    /// The shortest interval between scans, in nanoseconds: 1 ms.
    public static let minimumScanIntervalNs: Int64 = 1_000_000

    /// How many row lines (inputs), within `lineCountRange`.
    public var rows: Int
    /// How many column lines (driven outputs), within `lineCountRange`.
    public var columns: Int
    /// Whether every key has a diode in series: then every combination of keys held reads exactly
    /// (n-key rollover). Without diodes, three corners of a rectangle held make the fourth read down
    /// too (a ghost), and `MatrixScanner` reports no new key from such a reading.
    public var diodes: Bool
    /// How long after driving one column its rows are read, in nanoseconds (the lines' capacitance
    /// must charge); default 10 µs.
    public var settleNs: Int64
    /// From one scan's start to the next while any key is down, in nanoseconds; default 10 ms.
    /// While no key is down nothing is scanned: the rows wait for an edge.
    public var scanIntervalNs: Int64

    public init(rows: Int, columns: Int, diodes: Bool = false, settleNs: Int64 = 10_000, scanIntervalNs: Int64 = 10_000_000) {
        self.rows = rows
        self.columns = columns
        self.diodes = diodes
        self.settleNs = settleNs
        self.scanIntervalNs = scanIntervalNs
    }

    /// How long one scan takes at least, in nanoseconds: the settle time of every column.
    /// `scanIntervalNs` must be longer.
    public var scanDurationNs: Int64 { Int64(columns) * settleNs }

    /// How many keys the matrix has: `rows * columns`.
    public var keyCount: Int { rows * columns }

    /// The number of the key at `row` (0-based) and `column` (0-based): `row * columns + column`.
    public func key(row: Int, column: Int) -> Int { row * columns + column }

    /// Whether both counts are within `lineCountRange` (a scanner of a matrix outside it scans only
    /// the rows and columns that fit, and never traps).
    public var hasValidSize: Bool {
        Self.lineCountRange.contains(rows) && Self.lineCountRange.contains(columns)
    }
}
