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

/// The sink that keeps the values inputs hold across restarts and power cuts, in the state directory:
/// each input's value in the file its kind describes (`Entry.file`, `StateFile`: a meter's total in
/// `<directory>/counters`, a knob's position with `restore: true` in `<directory>/positions`),
/// one format for every file (`StateFileFormat`). Which inputs keep a value, and in which file, is their
/// kinds' to say (`InputKinds.kept`); the store knows only entries and files.
///
/// At the start (`init`) it locks the directory, reads the files its entries are in and gives each
/// entry its starting value (`initialValues`, for `DaemonPlan(configuration, starts:)`, by each
/// entry's input). During the run it takes the value each output gives its input
/// (`PipelineOutput.heldValue`: a pulse's or a reset's total, a detent's or a reset's position) and
/// keeps each entry's latest; a file is written whole, atomically (`AtomicFile`: a temporary file,
/// `fsync`, `rename`, then `fsync` of the directory so that a power cut keeps the new name), when the
/// earliest unsaved entry's flush interval has passed since its first unsaved change
/// (`nextDeadlineNs`, written in `advance`), and at the end (`finish`). So a file is written at most
/// once per interval while values change, never while none do, only when one of its own entries
/// changed, and a `kill -9` or a power cut loses at most one interval's changes.
///
/// A file keeps the lines of names the run does not keep (an input taken out of the configuration, or
/// renamed): they are written back as they were, never dropped silently.
///
/// A failed write (disk full, read-only file system, the directory gone) is logged as a warning that
/// says what to do, and tried again one interval later: the run goes on. Reading errors at the start
/// are thrown (`KeptStateError`), and a file that is not a valid state file is never overwritten:
/// the run does not start.
///
/// The directory's lock (`flock(LOCK_EX | LOCK_NB)` on `<directory>/counters.lock`, created if
/// missing and never removed, `StateDirectoryLock`) is held from `init` until the store is released, so
/// that a second run on the same directory is refused instead of two runs overwriting each other's
/// values. A reload hands it from one run's store to the next's (`lock`, then `init(…, lock:)`). The
/// temporary file of a write cut off by a `kill -9` (`.counters.XXXXXX`) is removed at the next start
/// that keeps values in that file.
///
/// A run's wiring:
///
///     let directory = try stateDirOption ?? StateDirectory.defaultPath()
///     let store = try StateStore(directory: directory, entries: InputKinds.kept(configuration.roster), logger: logger)
///     let plan = DaemonPlan(configuration, starts: /* each entry's input: its initial value */)
///     // ... the loop's sinks include `store`; keep it alive until the loop has finished.
///
/// Make the store only when the configuration has entries (an empty list works, but locks and creates
/// the directory for nothing). Not thread-safe: the event loop's thread only.
package final class StateStore: Sink {
    /// One input whose value the state directory keeps.
    package struct Entry: Sendable, Hashable {
        /// Its name in the configuration and in the file (`StateFileFormat.isValidName`).
        package var name: String
        /// Its input (`OutputSource.input` of the outputs that change its value).
        package var input: Int
        /// The file it is kept in.
        package var file: StateFile
        /// Its file is written at most this long after its first unsaved change, in nanoseconds of the
        /// loop's clock (`CounterSettings.flushIntervalNs`; at least 1).
        package var flushIntervalNs: Int64

        package init(name: String, input: Int, file: StateFile, flushIntervalNs: Int64) {
            self.name = name
            self.input = input
            self.file = file
            self.flushIntervalNs = flushIntervalNs
        }
    }

    /// The flush interval of an entry whose input has no `flush:` of its own (a knob's position
    /// with `restore: true`): 5 s, as a meter's default `flush:`.
    package static let defaultFlushIntervalNs: Int64 = 5_000_000_000

    /// The lock file's name in the state directory (one lock for every file).
    package static let lockFileName = "counters.lock"

    /// The state directory, as given.
    package let directory: String
    /// The run's entries, in the order given.
    package let entries: [Entry]
    /// The files the entries are in, by name: the only ones read and written.
    package let files: [StateFile]
    /// Each entry's value at the start, in `entries`' order: its file's, or for a name the file does
    /// not list (or no file) `StateFile.valueWhenMissing` (a total 0; no position: the input's own start).
    package let initialValues: [Int64?]
    /// Each entry's latest value, in `entries`' order (0, or its file's minimum if higher, for one the
    /// file did not list and that has not changed).
    package private(set) var values: [Int64]
    /// Each file's lines of names the run does not keep, in the file's order, written back as they were.
    package let keptLines: [StateFile: [StateFileEntry]]
    /// Files written (for measurements: at most one per file and flush interval while values change).
    package var writes: Int { writesOf.values.reduce(0, +) }
    /// Writes that failed (each logged, or noted in the log of the failures in a row).
    package var failedWrites: Int { failedWritesOf.values.reduce(0, +) }
    /// Each file's writes.
    package private(set) var writesOf: [StateFile: Int] = [:]
    /// Each file's writes that failed.
    package private(set) var failedWritesOf: [StateFile: Int] = [:]

    private let logger: Logger
    /// The state directory's lock, held for the run; a reload hands it to the next run's store.
    package let lock: StateDirectoryLock
    /// The entry of each input.
    private let entryOfInput: [Int: Int]
    /// Each entry's smallest value (its file's), read on every value taken without touching the file's description.
    private let minimumValues: [Int64]
    /// The values in the files as last written (or read).
    private var savedValues: [Int64]
    /// When each entry's first unsaved change came (nil: saved), on the loop's clock; a failed write
    /// moves it to the failure's time, so that the write is tried again one interval later.
    private var unsavedSinceNs: [Int64?]
    /// The errno of each file's last write if it failed: the failures in a row after the first are
    /// logged only at debug level, until the errno changes or a write succeeds.
    private var failing: [StateFile: Errno] = [:]

    /// Locks `directory` (created with its parents if missing, `StateDirectory.create`), reads the
    /// file of each of `entries`' files (a missing file: none listed) and sets each entry to start
    /// from its value there. Throws `KeptStateError`: the directory cannot be created or locked,
    /// another run holds the lock (`.locked`), a file cannot be read or is not a valid state file (left
    /// as it is), or a name cannot be kept in its file (twice in one file, or not a word). `logger` gets
    /// the write failures (warnings) and a line per write (debug).
    ///
    /// `lock`: the lock of the run before, handed over by a reload: taken as this store's when it is
    /// `directory`'s, else released first. The store before must not write once it handed its lock over.
    package init(directory: String, entries: [Entry], logger: Logger, lock handedOver: StateDirectoryLock? = nil) throws(KeptStateError) {
        let files = Self.files(of: entries)
        var names: [StateFile: Set<String>] = [:]
        for file in files { names[file] = try Self.checked(entries.filter { $0.file == file }.map(\.name), in: file) }
        try StateDirectory.create(directory)
        self.directory = directory
        self.entries = entries
        self.files = files
        self.logger = logger
        if let handedOver, handedOver.directory == directory {
            lock = handedOver
        } else {
            handedOver?.release()
            lock = try StateDirectoryLock.acquire(directory: directory)
        }
        for name in Self.removeUnfinishedWrites(in: directory, of: files) {
            logger.notice("removed '\(name)' from '\(directory)': the unfinished write of a run that was killed or lost power")
        }
        var initialValues = entries.map { $0.file.valueWhenMissing }
        var keptLines: [StateFile: [StateFileEntry]] = [:]
        for file in files {
            let lines = try Self.read(Self.path(of: file, in: directory), kind: file)
            let byName = Dictionary(lines.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            for (index, entry) in entries.enumerated() where entry.file == file {
                if let value = byName[entry.name] { initialValues[index] = value }
            }
            keptLines[file] = lines.filter { !(names[file] ?? []).contains($0.name) }
        }
        self.initialValues = initialValues
        self.keptLines = keptLines
        values = zip(initialValues, entries).map { $0 ?? max(0, $1.file.minimumValue) }
        savedValues = values
        unsavedSinceNs = Array(repeating: nil, count: entries.count)
        entryOfInput = Dictionary(entries.enumerated().map { ($1.input, $0) }, uniquingKeysWith: { first, _ in first })
        minimumValues = entries.map(\.file.minimumValue)
    }

    /// `names` as a set, once each can be a line of a state file and none comes twice.
    private static func checked(_ names: [String], in file: StateFile) throws(KeptStateError) -> Set<String> {
        var seen = Set<String>()
        for name in names {
            guard StateFileFormat.isValidName(name) else { throw .unsuitableName(name: name, kind: file) }
            guard seen.insert(name).inserted else { throw .duplicateEntry(name: name, kind: file) }
        }
        return seen
    }

    /// The files `entries` are in, each once, by name (`counters` before `positions`).
    package static func files(of entries: [Entry]) -> [StateFile] {
        Set(entries.map(\.file)).sorted { $0.fileName < $1.fileName }
    }

    /// The indices in `entries` of the entries kept in `file`, in order.
    package func indices(in file: StateFile) -> [Int] { entries.indices.filter { entries[$0].file == file } }

    /// The path of the file of `kind` in `directory`.
    static func path(of kind: StateFile, in directory: String) -> String {
        directory.hasSuffix("/") ? directory + kind.fileName : directory + "/" + kind.fileName
    }

    /// The path of this store's file of `kind`: `<directory>/counters`, `<directory>/positions`.
    package func path(of kind: StateFile) -> String { Self.path(of: kind, in: directory) }

    /// Values only.
    package var consumesEdges: Bool { false }
    /// What it writes (the state files, at their flush) has no reader waiting for an event.
    package var writesOutputsAtOnce: Bool { true }

    /// The entries of `file` whose latest value is not in it yet.
    package func unsaved(in file: StateFile) -> Int {
        indices(in: file).count { unsavedSinceNs[$0] != nil }
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) {
        guard let (input, value) = output.heldValue, let index = entryOfInput[input] else { return }
        values[index] = max(minimumValues[index], value)
        if unsavedSinceNs[index] == nil, values[index] != savedValues[index] { unsavedSinceNs[index] = nowNs }
    }

    /// When a file is next due: the earliest unsaved entry's first unsaved change plus its flush
    /// interval; nil when everything is saved.
    package var nextDeadlineNs: Int64? {
        var earliest: Int64?
        for (index, since) in unsavedSinceNs.enumerated() {
            guard let since else { continue }
            let due = since.addingReportingOverflow(max(1, entries[index].flushIntervalNs))
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
        for file in files where unsaved(in: file) > 0 { save(file, atNs: nowNs, final: final) }
    }

    /// Writes `file` (its entries, then the kept names), atomically, and the directory's entry to
    /// disk; on failure, logs and tries again one interval later.
    private func save(_ file: StateFile, atNs nowNs: Int64, final: Bool) {
        let path = path(of: file)
        let mine = indices(in: file)
        let text = StateFileFormat.format(mine.map { StateFileEntry(name: entries[$0].name, value: values[$0]) }, kept: keptLines[file] ?? [], kind: file)
        do {
            try Self.write(text, to: path, directory: directory)
        } catch {
            failedWritesOf[file, default: 0] += 1
            let unsaved = mine.filter { unsavedSinceNs[$0] != nil }
            let lost = file.lostChanges(unsaved.reduce(Int64(0)) { $0 &+ (values[$1] &- savedValues[$1]) })
            let failure = "cannot save \(file.contents): \(error.description) (\(lost)\(unsaved.map { entries[$0].name }.joined(separator: ", ")) not saved)"
            if final {
                let latest = unsaved.map { "\(entries[$0].name) \(values[$0])" }.joined(separator: ", ")
                logger.error("\(failure); they are lost unless put back by hand in '\(path)' while gpio-debounce is stopped: \(latest)")
            } else if failing[file] != error.errno {
                logger.warning("\(failure); \(advice(error.errno, path: path)); trying again every flush interval, counting goes on")
            } else {
                logger.debug("\(failure); trying again")
            }
            failing[file] = error.errno
            for index in unsaved { unsavedSinceNs[index] = nowNs }
            return
        }
        writesOf[file, default: 0] += 1
        if failing.removeValue(forKey: file) != nil {
            logger.notice("\(file.contents) saved to '\(path)' again")
        }
        logger.debug("\(file.contents) saved to '\(path)'")
        for index in mine {
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
