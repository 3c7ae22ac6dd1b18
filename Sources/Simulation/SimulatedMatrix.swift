import DebounceCore

/// The physics of a key matrix: which keys are closed at a time, and so which rows read
/// active for a drive. Pure: a test drives `MatrixScanner` against it with no event loop.
///
/// Each key joins its row and its column while closed. With diodes, current flows only from the
/// key's column into its row, so a row reads active iff a closed key joins it to a driven column.
/// Without diodes, the undriven columns (high-impedance) and the rows conduct between keys, so a row
/// reads active iff it is connected to a driven column through any path of closed keys: three corners
/// of a rectangle closed make the fourth's row read active (the ghost path).
package struct SimulatedMatrix: Sendable {
    /// The matrix's size and whether it has diodes (its timing is the scanner's business).
    package let configuration: MatrixConfiguration
    /// Each key's contact as edges in time order: level `.low` closed, `.high` open; open before the first.
    package let keyEdges: [[Edge]]

    /// A matrix whose key `k`'s contact moves as `keyEdges[k]` says (edges in time order, `.low` =
    /// closed, open before its first edge, e.g. from `BouncyButton` cycles). Missing keys stay open.
    package init(configuration: MatrixConfiguration, keyEdges: [[Edge]]) {
        self.configuration = configuration
        self.keyEdges = keyEdges
    }

    /// Whether `key`'s contact is closed at `timeNs` (nanoseconds): an edge stamped at `timeNs` has happened.
    package func isClosed(key: Int, atNs timeNs: Int64) -> Bool {
        guard keyEdges.indices.contains(key) else { return false }
        let edges = keyEdges[key]
        let count = Self.countAtOrBefore(timeNs, in: edges)
        return count > 0 && edges[count - 1].level == .low
    }

    /// The rows reading active at `timeNs` under `drive` (bit r: row r): with diodes, row r iff a closed
    /// key (r, c) with c driven; without diodes, row r iff connected to a driven column through closed
    /// keys (undriven columns are high-impedance and conduct between keys: the ghost path).
    package func rowsDown(drive: MatrixDrive, atNs timeNs: Int64) -> UInt32 {
        let columns = max(configuration.columns, 0)
        let rows = min(max(configuration.rows, 0), UInt32.bitWidth)
        // closedRows[c]: the rows joined to column c by a closed key.
        var closedRows = [UInt32](repeating: 0, count: columns)
        for column in 0..<columns {
            for row in 0..<rows where isClosed(key: configuration.key(row: row, column: column), atNs: timeNs) {
                closedRows[column] |= 1 << UInt32(row)
            }
        }
        var reached = [Bool](repeating: false, count: columns)
        switch drive {
        case .all:
            reached = [Bool](repeating: true, count: columns)
        case .column(let column):
            guard reached.indices.contains(column) else { return 0 }
            reached[column] = true
        }
        var rowsActive: UInt32 = 0
        for column in 0..<columns where reached[column] { rowsActive |= closedRows[column] }
        guard !configuration.diodes else { return rowsActive }
        // Without diodes: spread through columns that share an active row, until nothing new is reached.
        var grew = true
        while grew {
            grew = false
            for column in 0..<columns where !reached[column] && closedRows[column] & rowsActive != 0 {
                reached[column] = true
                rowsActive |= closedRows[column]
                grew = true
            }
        }
        return rowsActive
    }

    /// The first time after `afterNs` (strictly) at which some key's contact changes, in nanoseconds;
    /// `nil` when none does: when a row may change.
    package func nextChangeNs(after afterNs: Int64) -> Int64? {
        var earliest: Int64?
        for edges in keyEdges {
            let index = Self.countAtOrBefore(afterNs, in: edges)
            if index < edges.count, earliest.map({ edges[index].timeNs < $0 }) ?? true { earliest = edges[index].timeNs }
        }
        return earliest
    }

    /// How many of `edges` (in time order) are stamped at or before `timeNs`.
    private static func countAtOrBefore(_ timeNs: Int64, in edges: [Edge]) -> Int {
        var low = 0, high = edges.count
        while low < high {
            let middle = (low + high) / 2
            if edges[middle].timeNs <= timeNs { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
