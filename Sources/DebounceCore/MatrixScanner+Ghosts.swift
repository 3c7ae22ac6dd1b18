extension MatrixScanner {
    /// Whether a reading has a ghost rectangle: two columns that both read two or more of the same
    /// rows down. Without diodes such a reading cannot tell which of those keys are really closed
    /// (any three of a rectangle's corners make the fourth read down).
    /// `columnRows[c]`: the rows read active while column c was driven (bit r: row r).
    public static func hasGhostRectangle(_ columnRows: [UInt32]) -> Bool {
        for first in columnRows.indices where columnRows[first].nonzeroBitCount >= 2 {
            for second in columnRows.indices where second > first {
                if (columnRows[first] & columnRows[second]).nonzeroBitCount >= 2 { return true }
            }
        }
        return false
    }

    /// Whether a reading of a matrix without diodes is ambiguous: it has a ghost rectangle, or two
    /// columns share a row but read different rows.
    ///
    /// Without diodes a driven column reads every row connected to it through closed keys, so two
    /// columns that share a row are connected and, read at one instant, read the same rows. A scan reads
    /// one column at a time, though: keys that move between two columns' reads can leave a reading that
    /// no instant gives, such as a ghost read on the first column and its rectangle broken before the
    /// second. Such a reading is as ambiguous as a rectangle.
    public static func isAmbiguousWithoutDiodes(_ columnRows: [UInt32]) -> Bool {
        for first in columnRows.indices where columnRows[first] != 0 {
            for second in columnRows.indices where second > first {
                let shared = columnRows[first] & columnRows[second]
                if shared != 0, shared.nonzeroBitCount >= 2 || columnRows[first] != columnRows[second] { return true }
            }
        }
        return false
    }
}
