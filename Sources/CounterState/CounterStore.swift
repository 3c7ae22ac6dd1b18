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
/// total (`initialTotals`, for `DaemonPlan(configuration, counterTotals:)`). During the run it takes
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
/// missing and never removed) is held from `init` until the store is released (its descriptor closed in
/// `deinit`), so that a second run on the same directory is refused instead of two runs overwriting each
/// other's totals. The temporary file of a write cut off by a `kill -9` (`.counters.XXXXXX`) is removed
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
///     let plan = DaemonPlan(configuration, counterTotals: store.initialTotals)
///     // ... the loop's sinks include `store`; keep it alive until the loop has finished.
///
/// Make the store only when the configuration has counters (an empty list works, but locks and
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

    /// The file's name in the state directory.
    package static let fileName = "counters"
    /// The lock file's name in the state directory.
    package static let lockFileName = "counters.lock"

    /// The state directory, as given.
    package let directory: String
    /// The state file: `<directory>/counters`.
    package let path: String
    /// The run's counters, in the order given.
    package let counters: [Counter]
    /// Each counter's total at the start, in `counters`' order: the file's, or 0 for a counter it
    /// does not list (and when there is no file).
    package let initialTotals: [Int64]
    /// Each counter's latest total, in `counters`' order.
    package private(set) var totals: [Int64]
    /// The lines of names the run does not count, in the file's order, written back as they were.
    package let keptTotals: [CounterTotal]
    /// Files written (for measurements: at most one per flush interval while pulses come).
    package private(set) var writes = 0
    /// Writes that failed (each logged, or noted in the log of the failures in a row).
    package private(set) var failedWrites = 0

    private let logger: Logger
    private let lock: OwnedDescriptor
    /// The counter of each line of the run (`nil`: not a counter).
    private let counterOfLine: [Int: Int]
    /// The totals in the file as last written (or read).
    private var savedTotals: [Int64]
    /// When each counter's first unsaved pulse came (nil: saved), on the loop's clock; a failed write
    /// moves it to the failure's time, so that the write is tried again one interval later.
    private var unsavedSinceNs: [Int64?]
    /// The errno of the last write if it failed: the failures in a row after the first are logged
    /// only at debug level, until the errno changes or a write succeeds.
    private var failing: Errno?

    /// Locks `directory` (created with its parents if missing, `StateDirectory.create`), reads its
    /// state file (a missing file: every total 0) and sets each of `counters` to start from its total.
    /// Throws `CounterStateError`: the directory cannot be created or locked, another run holds the
    /// lock (`.locked`), the file cannot be read or is not a valid state file (left as it is), or a
    /// counter's name cannot be kept in the file. `logger` gets the write failures (warnings) and a
    /// line per write (debug).
    package init(directory: String, counters: [Counter], logger: Logger) throws(CounterStateError) {
        var seen = Set<String>()
        for counter in counters {
            guard CounterStateFile.isValidName(counter.name) else { throw .unsuitableCounterName(name: counter.name) }
            guard seen.insert(counter.name).inserted else { throw .duplicateCounter(name: counter.name) }
        }
        try StateDirectory.create(directory)
        self.directory = directory
        self.path = directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
        self.counters = counters
        self.logger = logger
        lock = try Self.lock(directory: directory)
        for name in Self.removeUnfinishedWrites(in: directory) {
            logger.notice("removed '\(name)' from '\(directory)': the unfinished write of a run that was killed or lost power")
        }
        let fileTotals = try Self.read(path)
        var byName: [String: Int64] = [:]
        for entry in fileTotals { byName[entry.name] = entry.total }
        initialTotals = counters.map { byName[$0.name] ?? 0 }
        keptTotals = fileTotals.filter { !seen.contains($0.name) }
        totals = initialTotals
        savedTotals = initialTotals
        unsavedSinceNs = Array(repeating: nil, count: counters.count)
        var lines: [Int: Int] = [:]
        for (index, counter) in counters.enumerated() { lines[counter.line] = index }
        counterOfLine = lines
    }

    /// Counts only.
    package var consumesEdges: Bool { false }

    /// Counters whose latest total is not in the file yet.
    package var unsavedCounters: Int { unsavedSinceNs.count { $0 != nil } }

    package func consume(_ output: PipelineOutput, nowNs: Int64) {
        guard case .count(let line, let pulse) = output, let index = counterOfLine[line] else { return }
        totals[index] = max(0, pulse.total)
        if unsavedSinceNs[index] == nil, totals[index] != savedTotals[index] { unsavedSinceNs[index] = nowNs }
    }

    /// When the file is next due: the earliest unsaved counter's first unsaved pulse plus its flush
    /// interval; nil when everything is saved.
    package var nextDeadlineNs: Int64? {
        var earliest: Int64?
        for (index, since) in unsavedSinceNs.enumerated() {
            guard let since else { continue }
            let due = since.addingReportingOverflow(max(1, counters[index].flushIntervalNs))
            let deadline = due.overflow ? Int64.max : due.partialValue
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// Writes the file when it is due.
    package func advance(toNs nowNs: Int64) {
        if let due = nextDeadlineNs, due <= nowNs { save(atNs: nowNs) }
    }

    /// Writes the file if any total is unsaved. A failure here is logged as an error (the totals since
    /// the last write are lost), never thrown: the other sinks still finish.
    package func finish(atNs nowNs: Int64) {
        guard unsavedCounters > 0 else { return }
        save(atNs: nowNs, final: true)
    }

    /// Writes every total now (the run's counters, then the kept names), atomically, and the
    /// directory's entry to disk; on failure, logs and tries again one interval later.
    private func save(atNs nowNs: Int64, final: Bool = false) {
        let entries = counters.indices.map { CounterTotal(name: counters[$0].name, total: totals[$0]) }
        let text = CounterStateFile.format(entries, kept: keptTotals)
        do {
            try Self.write(text, to: path, directory: directory)
        } catch {
            failedWrites += 1
            let unsaved = counters.indices.filter { unsavedSinceNs[$0] != nil }
            let pulses = unsaved.reduce(Int64(0)) { $0 &+ (totals[$1] &- savedTotals[$1]) }
            let what = "cannot save the counters' totals: \(error.description) (\(counted(Int(clamping: pulses), "pulse")) of \(unsaved.map { counters[$0].name }.joined(separator: ", ")) not saved)"
            if final {
                let latest = unsaved.map { "\(counters[$0].name) \(totals[$0])" }.joined(separator: ", ")
                logger.error("\(what); they are lost unless put back by hand in '\(path)' while gpio-debounce is stopped: \(latest)")
            } else if failing != error.errno {
                logger.warning("\(what); \(advice(error.errno)); trying again every flush interval, counting goes on")
            } else {
                logger.debug("\(what); trying again")
            }
            failing = error.errno
            for index in unsaved { unsavedSinceNs[index] = nowNs }
            return
        }
        writes += 1
        if failing != nil {
            logger.notice("counters' totals saved to '\(path)' again")
            failing = nil
        }
        logger.debug("counters' totals saved to '\(path)'")
        savedTotals = totals
        unsavedSinceNs = Array(repeating: nil, count: counters.count)
    }

    private func advice(_ errno: Errno) -> String {
        switch errno {
        case .noSpace: "free space on the disk of '\(directory)'"
        case .readOnlyFileSystem: "the file system of '\(directory)' is read-only: remount it read-write, or give run another --state-dir"
        case .permissionDenied, .notPermitted: "make '\(directory)' writable by the user running gpio-debounce"
        case .noSuchFileOrDirectory: "the directory '\(directory)' is gone: create it again"
        case .isDirectory, .directoryNotEmpty: "'\(path)' is a directory: move it away"
        default: "check '\(directory)'"
        }
    }

    // MARK: The file system

    /// Opens (creating, mode 0644) and locks `<directory>/counters.lock`: `open(2)` with `O_CLOEXEC`
    /// (no action's command inherits the lock), `flock(LOCK_EX | LOCK_NB)`.
    private static func lock(directory: String) throws(CounterStateError) -> OwnedDescriptor {
        let lockPath = directory.hasSuffix("/") ? directory + lockFileName : directory + "/" + lockFileName
        let owned: OwnedDescriptor
        do {
            owned = try OwnedDescriptor(operation: "open") { open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o644) }
        } catch {
            throw .cannotLock(path: lockPath, errno: error.errno)
        }
        do {
            _ = try retryingInterrupts { flock(owned.descriptor.rawValue, LOCK_EX | LOCK_NB) }
        } catch {
            if error == .wouldBlock { throw .locked(directory: directory) }
            throw .cannotLock(path: lockPath, errno: error)
        }
        return owned
    }

    /// Removes the temporary files a write cut off by `kill -9` or a power cut left in `directory`
    /// (`AtomicFile`'s `.counters.XXXXXX`, regular files only; `opendir`, `readdir`, `lstat`,
    /// `unlink`), while this store holds the lock, so no other run is writing one. Returns their names.
    /// A directory that cannot be listed is left alone: reading the file says what is wrong.
    private static func removeUnfinishedWrites(in directory: String) -> [String] {
        guard let listing = opendir(directory) else { return [] }
        defer { closedir(listing) }
        let prefix = "." + fileName + "."
        var removed: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix), name.utf8.count == prefix.utf8.count + 6 else { continue }
            let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG, unlink(full) == 0 else { continue }
            removed.append(name)
        }
        return removed
    }

    /// The totals in the file at `path`: none when it does not exist; else at most
    /// `CounterStateFile.maximumBytes` + 1 bytes read (`open`, `fstat`, `read`) and parsed.
    static func read(_ path: String) throws(CounterStateError) -> [CounterTotal] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return [] }
            throw .unreadable(path: path, errno: Errno(rawValue: code))
        }
        let owned = OwnedDescriptor(FileDescriptor(rawValue: descriptor))
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw .unreadable(path: path, errno: info.st_mode & S_IFMT == S_IFDIR ? .isDirectory : .invalidArgument)
        }
        let limit = CounterStateFile.maximumBytes + 1
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(owned.descriptor.rawValue, $0.baseAddress, wanted) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .unreadable(path: path, errno: Errno(rawValue: code))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return try CounterStateFile.parse(bytes, path: path)
    }

    /// Writes `text` to `path` atomically (`AtomicFile`: `mkstemp` beside it, `write`, `fsync`,
    /// `rename`), then `fsync`s `directory` so that the rename itself survives a power cut.
    private static func write(_ text: String, to path: String, directory: String) throws(SystemError) {
        let file = try AtomicFile(destination: path)
        do {
            _ = try file.descriptor.writeAll(Array(text.utf8))
        } catch {
            file.abandon()
            throw SystemError("writing '\(path)'", (error as? Errno) ?? .ioError)
        }
        try file.commit()
        let owned = try OwnedDescriptor(operation: "opening the directory '\(directory)'") {
            open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        do {
            _ = try retryingInterrupts { fsync(owned.descriptor.rawValue) }
        } catch {
            throw SystemError("syncing the directory '\(directory)'", error)
        }
    }
}
