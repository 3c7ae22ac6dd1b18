import CounterState
import Logging

/// The views these tests read a store through, by file: a meter's totals, an encoder's positions.
extension StateStore {
    /// A store of `counters` (entries of the counters' file) and `encoders` (of the positions file).
    convenience init(directory: String, counters: [Entry], encoders: [Entry] = [], logger: Logger, lock: StateDirectoryLock? = nil) throws(CounterStateError) {
        try self.init(directory: directory, entries: counters + encoders, logger: logger, lock: lock)
    }


    var path: String { path(of: .counters) }
    var positionsPath: String { path(of: .positions) }
    var initialTotals: [Int64] { indices(in: .counters).map { initialValues[$0] ?? 0 } }
    var initialPositions: [Int64?] { indices(in: .positions).map { initialValues[$0] } }
    var totals: [Int64] { indices(in: .counters).map { values[$0] } }
    var positions: [Int64] { indices(in: .positions).map { values[$0] } }
    var keptTotals: [CounterTotal] { (keptLines[.counters] ?? []).map { CounterTotal(name: $0.name, total: $0.value) } }
    var keptPositions: [EncoderPosition] { (keptLines[.positions] ?? []).map { EncoderPosition(name: $0.name, position: $0.value) } }
    var unsavedCounters: Int { unsaved(in: .counters) }
    var unsavedEncoders: Int { unsaved(in: .positions) }
}
