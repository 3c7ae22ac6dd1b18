#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import EventLoop
import LinuxSys
import Logging
import Pipeline
import SystemPackage

/// The sink that keeps the pulse counters' totals across restarts and power cuts, in the state file
/// `<directory>/counters` (`CounterStateFile`).
///
/// At the start (`init`) it locks the directory, reads the file and gives each counter its starting
/// total (`initialTotals`, for `DaemonPlan(configuration, starts:)`, by each counter's input). During the run it takes
/// the pipeline's `.count` outputs and keeps each counter's latest total; the file is written whole,
/// atomically (`AtomicFile`: a temporary file, `fsync`, `rename`, then `fsync` of the directory so that
/// a power cut keeps the new name), when the earliest unsaved counter's flush interval has passed since
/// its first unsaved pulse (`nextDeadlineNs`, written in `advance`), and at the end (`finish`). So the
/// file is written at most once per interval while pulses come, never while none do, and a `kill -9`
/// or a power cut loses at most one interval's pulses.
///
/// The file keeps the lines of names the run does not count (a counter taken out of the
/// configuration, or renamed): they are written back as they were, never dropped silently.
///
/// A failed write (disk full, read-only file system, the directory gone) is logged as a warning that
/// says what to do, and tried again one interval later: the run and the counting go on. Reading errors
/// at the start are thrown (`CounterStateError`), and a file that is not a valid state file is never
/// overwritten: the run does not start.
///
/// The directory's lock (`flock(LOCK_EX | LOCK_NB)` on `<directory>/counters.lock`, created if
/// missing and never removed, `StateDirectoryLock`) is held from `init` until the store is released, so
/// that a second run on the same directory is refused instead of two runs overwriting each other's
/// totals. A reload hands it from one run's store to the next's (`lock`, then `init(…, lock:)`). The temporary file of a write cut off by a `kill -9` (`.counters.XXXXXX`) is removed
/// at the next start.
///
/// A run's wiring, with the roster's counters and their lines (`Roster.counters`):
///
///     let directory = try stateDirOption ?? StateDirectory.defaultPath()
///     let store = try CounterStore(
///         directory: directory,
///         counters: configuration.roster.counters.map { counter, line in
///             CounterStore.Counter(name: counter.name, line: line.index, flushIntervalNs: counter.flushIntervalNs)
///         },
///         logger: logger)
///     let plan = DaemonPlan(configuration, starts: /* each counter's input: its total */)
///     // ... the loop's sinks include `store`; keep it alive until the loop has finished.
///
/// Encoders with `restore: true` are kept the same way, in a second file, `<directory>/positions`
/// (`EncoderPositionFile`), under the same lock: `init(encoders:)` reads their positions
/// (`initialPositions`, for `DaemonPlan(configuration, starts:)`), the pipeline's
/// `.rotation` outputs keep each one's latest, and that file is written by the same rules (at most once
/// per flush interval while the knob turns, and at the end). Each file is written only when one of its
/// own entries changed; the positions file is not read or written by a store without encoders.
///
/// Make the store only when the configuration has counters or encoders to restore (an empty list works, but locks and
/// creates the directory for nothing). Not thread-safe: the event loop's thread only.
package final class CounterStore: Sink {
    /// One counter of the run.
    package struct Counter: Sendable, Hashable {
        /// Its name in the configuration and in the file (`CounterStateFile.isValidName`).
        package var name: String
        /// Its line's index in the run (`PipelineOutput.count(line:)`).
        package var line: Int
        /// The file is written at most this long after the counter's first unsaved pulse, in
        /// nanoseconds of the loop's clock (`CounterSettings.flushIntervalNs`; at least 1).
        package var flushIntervalNs: Int64

        package init(name: String, line: Int, flushIntervalNs: Int64) {
            self.name = name
            self.line = line
            self.flushIntervalNs = flushIntervalNs
        }
    }

    /// One encoder of the run whose position is kept (`restore: true`).
    package struct Encoder: Sendable, Hashable {
        /// Its name in the configuration and in the positions file.
        package var name: String
        /// Its input (`OutputSource.input` of its detents and resets).
        package var input: Int
        /// The positions file is written at most this long after its first unsaved detent, in
        /// nanoseconds of the loop's clock (at least 1).
        package var flushIntervalNs: Int64

        package init(name: String, input: Int, flushIntervalNs: Int64) {
            self.name = name
            self.input = input
            self.flushIntervalNs = flushIntervalNs
        }
    }

    /// The counters' file's name in the state directory.
    package static let fileName = StateFileKind.counters.fileName
    /// The lock file's name in the state directory (one lock for both files).
    package static let lockFileName = "counters.lock"

    /// The state directory, as given.
    package let directory: String
    /// The counters' state file: `<directory>/counters`.
    package let path: String
    /// The encoders' position file: `<directory>/positions`.
    package let positionsPath: String
    /// The run's counters, in the order given.
    package let counters: [Counter]
    /// The run's encoders to restore, in the order given.
    package let encoders: [Encoder]
    /// Each counter's total at the start, in `counters`' order: the file's, or 0 for a counter it
    /// does not list (and when there is no file).
    package let initialTotals: [Int64]
    /// Each encoder's position at the start, in `encoders`' order: the positions file's (not yet
    /// clamped into the encoder's range), or `nil` for an encoder it does not list.
    package let initialPositions: [Int64?]
    /// Each counter's latest total, in `counters`' order.
    package var totals: [Int64] { Array(values[..<counters.count]) }
    /// Each encoder's latest position, in `encoders`' order (0 for one the file did not list and that
    /// has not turned).
    package var positions: [Int64] { Array(values[counters.count...]) }
    /// The lines of names the run does not count, in the file's order, written back as they were.
    package let keptTotals: [CounterTotal]
    /// The lines of the positions file the run does not restore, written back as they were.
    package let keptPositions: [EncoderPosition]
    /// Files written (for measurements: at most one per file and flush interval while pulses come).
    package var writes: Int { writesOf.values.reduce(0, +) }
    /// Writes that failed (each logged, or noted in the log of the failures in a row).
    package var failedWrites: Int { failedWritesOf.values.reduce(0, +) }
    /// Each file's writes.
    package private(set) var writesOf: [StateFileKind: Int] = [:]
    /// Each file's writes that failed.
    package private(set) var failedWritesOf: [StateFileKind: Int] = [:]

    private let logger: Logger
    /// The state directory's lock, held for the run; a reload hands it to the next run's store.
    package let lock: StateDirectoryLock
    /// The counter of each line of the run (`nil`: not a counter).
    private let counterOfLine: [Int: Int]
    /// The entry (an index into `values`, past the counters) of each encoder to restore.
    private let entryOfEncoder: [Int: Int]
    /// The counters' totals, then the encoders' positions: one entry each, in that order.
    private var values: [Int64]
    /// The values in the files as last written (or read).
    private var savedValues: [Int64]
    /// When each entry's first unsaved change came (nil: saved), on the loop's clock; a failed write
    /// moves it to the failure's time, so that the write is tried again one interval later.
    private var unsavedSinceNs: [Int64?]
    /// The errno of each file's last write if it failed: the failures in a row after the first are
    /// logged only at debug level, until the errno changes or a write succeeds.
    private var failing: [StateFileKind: Errno] = [:]

    /// Locks `directory` (created with its parents if missing, `StateDirectory.create`), reads its
    /// state file (a missing file: every total 0) and sets each of `counters` to start from its total;
    /// with `encoders`, reads the positions file the same way (`initialPositions`). Throws
    /// `CounterStateError`: the directory cannot be created or locked, another run holds the lock
    /// (`.locked`), a file cannot be read or is not a valid state file (left as it is), or a name
    /// cannot be kept in the file. `logger` gets the write failures (warnings) and a line per write (debug).
    ///
    /// `lock`: the lock of the run before, handed over by a reload: taken as this store's when it is
    /// `directory`'s, else released first. The store before must not write once it handed its lock over.
    package init(
        directory: String, counters: [Counter], encoders: [Encoder] = [], logger: Logger, lock handedOver: StateDirectoryLock? = nil
    ) throws(CounterStateError) {
        let seen = try Self.checked(counters.map(\.name))
        let seenEncoders = try Self.checked(encoders.map(\.name))
        try StateDirectory.create(directory)
        self.directory = directory
        self.path = Self.path(of: .counters, in: directory)
        self.positionsPath = Self.path(of: .positions, in: directory)
        self.counters = counters
        self.encoders = encoders
        self.logger = logger
        if let handedOver, handedOver.directory == directory {
            lock = handedOver
        } else {
            handedOver?.release()
            lock = try StateDirectoryLock.acquire(directory: directory)
        }
        for name in Self.removeUnfinishedWrites(in: directory) {
            logger.notice("removed '\(name)' from '\(directory)': the unfinished write of a run that was killed or lost power")
        }
        let fileTotals = try Self.read(path, kind: .counters)
        let byName = Dictionary(fileTotals, uniquingKeysWith: { first, _ in first })
        initialTotals = counters.map { byName[$0.name] ?? 0 }
        keptTotals = fileTotals.filter { !seen.contains($0.name) }.map { CounterTotal(name: $0.name, total: $0.value) }
        let filePositions = encoders.isEmpty ? [] : try Self.read(positionsPath, kind: .positions)
        let positionByName = Dictionary(filePositions, uniquingKeysWith: { first, _ in first })
        initialPositions = encoders.map { positionByName[$0.name] }
        keptPositions = filePositions.filter { !seenEncoders.contains($0.name) }.map { EncoderPosition(name: $0.name, position: $0.value) }
        values = initialTotals + initialPositions.map { $0 ?? 0 }
        savedValues = values
        unsavedSinceNs = Array(repeating: nil, count: values.count)
        var lines: [Int: Int] = [:]
        for (index, counter) in counters.enumerated() { lines[counter.line] = index }
        counterOfLine = lines
        var entries: [Int: Int] = [:]
        for (index, encoder) in encoders.enumerated() { entries[encoder.input] = counters.count + index }
        entryOfEncoder = entries
    }

    /// `names` as a set, once each can be a line of a state file and none comes twice.
    private static func checked(_ names: [String]) throws(CounterStateError) -> Set<String> {
        var seen = Set<String>()
        for name in names {
            guard CounterStateFile.isValidName(name) else { throw .unsuitableCounterName(name: name) }
            guard seen.insert(name).inserted else { throw .duplicateCounter(name: name) }
        }
        return seen
    }

    /// The path of the file of `kind` in `directory`.
    static func path(of kind: StateFileKind, in directory: String) -> String {
        directory.hasSuffix("/") ? directory + kind.fileName : directory + "/" + kind.fileName
    }

    /// Counts and turns only.
    package var consumesEdges: Bool { false }

    /// Counters whose latest total is not in the file yet.
    package var unsavedCounters: Int { unsavedSinceNs[..<counters.count].count { $0 != nil } }

    /// Encoders whose latest position is not in the file yet.
    package var unsavedEncoders: Int { unsavedSinceNs[counters.count...].count { $0 != nil } }

    package func consume(_ output: PipelineOutput, nowNs: Int64) {
        switch output {
        case .count(let source, let pulse):
            let line = source.lineIndex
            guard let index = counterOfLine[line] else { return }
            note(max(0, pulse.total), entry: index, nowNs: nowNs)
        case .totalReset(let source, let reset):
            guard let index = counterOfLine[source.lineIndex] else { return }
            note(reset.total, entry: index, nowNs: nowNs)
        case .rotation(let source, let detent):
            guard let index = entryOfEncoder[source.inputIndex] else { return }
            note(Int64(detent.position), entry: index, nowNs: nowNs)
        case .positionReset(let source, let position, _):
            guard let index = entryOfEncoder[source.inputIndex] else { return }
            note(Int64(position), entry: index, nowNs: nowNs)
        default:
            return
        }
    }

    /// Entry `index`'s latest value; its first change since the last write starts its interval.
    private func note(_ value: Int64, entry index: Int, nowNs: Int64) {
        values[index] = value
        if unsavedSinceNs[index] == nil, value != savedValues[index] { unsavedSinceNs[index] = nowNs }
    }

    /// Entry `index`'s flush interval, in nanoseconds (at least 1).
    private func flushIntervalNs(entry index: Int) -> Int64 {
        max(1, index < counters.count ? counters[index].flushIntervalNs : encoders[index - counters.count].flushIntervalNs)
    }

    /// When a file is next due: the earliest unsaved entry's first unsaved change plus its flush
    /// interval; nil when everything is saved.
    package var nextDeadlineNs: Int64? {
        var earliest: Int64?
        for (index, since) in unsavedSinceNs.enumerated() {
            guard let since else { continue }
            let due = since.addingReportingOverflow(flushIntervalNs(entry: index))
            let deadline = due.overflow ? Int64.max : due.partialValue
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// Writes the files with unsaved entries when one is due.
    package func advance(toNs nowNs: Int64) {
        if let due = nextDeadlineNs, due <= nowNs { save(atNs: nowNs) }
    }

    /// Writes each file with an unsaved entry. A failure here is logged as an error (the values since
    /// the last write are lost), never thrown: the other sinks still finish.
    package func finish(atNs nowNs: Int64) {
        save(atNs: nowNs, final: true)
    }

    /// Writes each file with an unsaved entry now.
    private func save(atNs nowNs: Int64, final: Bool = false) {
        if unsavedCounters > 0 { save(.counters, entries: 0..<counters.count, atNs: nowNs, final: final) }
        if unsavedEncoders > 0 { save(.positions, entries: counters.count..<values.count, atNs: nowNs, final: final) }
    }

    /// Writes the file of `kind` (its `entries`, then the kept names), atomically, and the directory's
    /// entry to disk; on failure, logs and tries again one interval later.
    private func save(_ kind: StateFileKind, entries: Range<Int>, atNs nowNs: Int64, final: Bool) {
        let path = kind == .counters ? path : positionsPath
        let names = counters.map(\.name) + encoders.map(\.name)
        let text =
            kind == .counters
            ? CounterStateFile.format(entries.map { CounterTotal(name: names[$0], total: values[$0]) }, kept: keptTotals)
            : EncoderPositionFile.format(entries.map { EncoderPosition(name: names[$0], position: values[$0]) }, kept: keptPositions)
        let what = kind == .counters ? "the counters' totals" : "the encoders' positions"
        do {
            try Self.write(text, to: path, directory: directory)
        } catch {
            failedWritesOf[kind, default: 0] += 1
            let unsaved = entries.filter { unsavedSinceNs[$0] != nil }
            let lost =
                kind == .counters
                ? counted(Int(clamping: unsaved.reduce(Int64(0)) { $0 &+ (values[$1] &- savedValues[$1]) }), "pulse") + " of "
                : "the positions of "
            let failure = "cannot save \(what): \(error.description) (\(lost)\(unsaved.map { names[$0] }.joined(separator: ", ")) not saved)"
            if final {
                let latest = unsaved.map { "\(names[$0]) \(values[$0])" }.joined(separator: ", ")
                logger.error("\(failure); they are lost unless put back by hand in '\(path)' while gpio-debounce is stopped: \(latest)")
            } else if failing[kind] != error.errno {
                logger.warning("\(failure); \(advice(error.errno, path: path)); trying again every flush interval, counting goes on")
            } else {
                logger.debug("\(failure); trying again")
            }
            failing[kind] = error.errno
            for index in unsaved { unsavedSinceNs[index] = nowNs }
            return
        }
        writesOf[kind, default: 0] += 1
        if failing.removeValue(forKey: kind) != nil {
            logger.notice("\(what) saved to '\(path)' again")
        }
        logger.debug("\(what) saved to '\(path)'")
        for index in entries {
            savedValues[index] = values[index]
            unsavedSinceNs[index] = nil
        }
    }

    private func advice(_ errno: Errno, path: String) -> String {
        switch errno {
        case .noSpace: "free space on the disk of '\(directory)'"
        case .readOnlyFileSystem: "the file system of '\(directory)' is read-only: remount it read-write, or give run another --state-dir"
        case .permissionDenied, .notPermitted: "make '\(directory)' writable by the user running gpio-debounce"
        case .noSuchFileOrDirectory: "the directory '\(directory)' is gone: create it again"
        case .isDirectory, .directoryNotEmpty: "'\(path)' is a directory: move it away"
        default: "check '\(directory)'"
        }
    }
}
