import Inputs
import KeptState
import Logging

/// The views these tests read a store through, by file: a meter's totals, an encoder's positions.
extension StateStore {
    /// A store of `counters` (entries of the counters' file) and `encoders` (of the positions file).
    convenience init(directory: String, counters: [Entry], encoders: [Entry] = [], logger: Logger, lock: StateDirectoryLock? = nil) throws(KeptStateError) {
        try self.init(directory: directory, entries: counters + encoders, logger: logger, lock: lock)
    }


    var path: String { path(of: .counters) }
    var positionsPath: String { path(of: .positions) }
    var initialTotals: [Int64] { indices(in: .counters).map { initialValues[$0] ?? 0 } }
    var initialPositions: [Int64?] { indices(in: .positions).map { initialValues[$0] } }
    var totals: [Int64] { indices(in: .counters).map { values[$0] } }
    var positions: [Int64] { indices(in: .positions).map { values[$0] } }
    var keptTotals: [StateFileEntry] { (keptLines[.counters] ?? []).map { StateFileEntry(name: $0.name, value: $0.value) } }
    var keptPositions: [StateFileEntry] { (keptLines[.positions] ?? []).map { StateFileEntry(name: $0.name, value: $0.value) } }
    var unsavedCounters: Int { unsaved(in: .counters) }
    var unsavedEncoders: Int { unsaved(in: .positions) }
}

/// The counters' file (`StateFile.counters`) as these tests read and write it.
enum CounterFile {
    static let header = StateFile.counters.header
    static let keptHeader = StateFile.keptHeader

    static func parse(_ bytes: [UInt8], path: String) throws(KeptStateError) -> [StateFileEntry] {
        try StateFileFormat.parse(bytes, path: path, kind: .counters)
    }

    static func format(_ entries: [StateFileEntry], kept: [StateFileEntry] = []) -> String {
        StateFileFormat.format(entries, kept: kept, kind: .counters)
    }
}

/// The encoders' positions file (`StateFile.positions`) as these tests read and write it.
enum PositionFile {
    static let header = StateFile.positions.header

    static func parse(_ bytes: [UInt8], path: String) throws(KeptStateError) -> [StateFileEntry] {
        try StateFileFormat.parse(bytes, path: path, kind: .positions)
    }

    static func format(_ entries: [StateFileEntry], kept: [StateFileEntry] = []) -> String {
        StateFileFormat.format(entries, kept: kept, kind: .positions)
    }
}
