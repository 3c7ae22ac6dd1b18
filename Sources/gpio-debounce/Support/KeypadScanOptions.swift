import ArgumentParser
import DebounceCore

/// `--scan-settle` and `--scan-interval`: how `watch --keypad` scans its matrix, as a keypad's
/// `scan_settle:` and `scan_interval:` say it in a configuration (the same spellings and limits), so
/// that a pad on long wires can be tried before it is configured.
struct KeypadScanOptions: ParsableArguments {
    @Option(
        name: .customLong("scan-settle"),
        help: ArgumentHelp(
            "With --keypad: how long after driving a column its rows are read, 1us to 100ms (default 10us; longer for long wires). As a keypad's scan_settle.",
            valueName: "duration"),
        transform: DurationArgument.withUnit)
    var settleNs: Int64?

    @Option(
        name: .customLong("scan-interval"),
        help: ArgumentHelp(
            "With --keypad: from one scan's start to the next while a key is down, at least 1ms and longer than a scan (the settle time of every column) (default 10ms). As a keypad's scan_interval.",
            valueName: "duration"),
        transform: DurationArgument.withUnit)
    var intervalNs: Int64?

    /// Whether either option was given.
    var isGiven: Bool { settleNs != nil || intervalNs != nil }

    /// The matrix of `rows` and `columns` lines, scanned as these options say (else as by default).
    func matrix(rows: Int, columns: Int) -> MatrixConfiguration {
        var matrix = MatrixConfiguration(rows: rows, columns: columns)
        if let settleNs { matrix.settleNs = settleNs }
        if let intervalNs { matrix.scanIntervalNs = intervalNs }
        return matrix
    }

    /// Refuses a settle time or an interval that a configuration's keypad would refuse.
    func check(rows: Int, columns: Int) throws {
        let matrix = matrix(rows: rows, columns: columns)
        if let settleNs, !MatrixConfiguration.settleRangeNs.contains(settleNs) {
            throw ValidationError("--scan-settle must be 1us to 100ms (a few microseconds suit real keypads), not \(DurationSyntax.format(settleNs)).")
        }
        if let intervalNs, intervalNs < MatrixConfiguration.minimumScanIntervalNs {
            throw ValidationError("--scan-interval must be at least 1ms, not \(DurationSyntax.format(intervalNs)).")
        }
        guard matrix.scanIntervalNs > matrix.scanDurationNs else {
            throw ValidationError(
                "A scan of \(columns) columns takes \(DurationSyntax.format(matrix.scanDurationNs)) (the settle time per column): make --scan-interval longer than that (it is \(DurationSyntax.format(matrix.scanIntervalNs))).")
        }
    }
}
