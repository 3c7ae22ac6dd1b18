#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import KeptState
import DebounceCore
import EventLoop
import Foundation
import Logging
import Pipeline
import Simulation
import Synchronization
import SystemPackage
import Testing

/// The counters' state file: its format (parse, format, every error), the default state directory,
/// and the store as a sink: how often it writes in virtual time, what a failed write, a second run, a
/// name the run does not count and a `kill -9` do.
@Suite struct CounterStoreTests {
    static let ms: Int64 = 1_000_000
    static let s: Int64 = 1_000_000_000
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    // MARK: The format

    @Test func formatAndParseRoundTrip() throws {
        let totals = [StateFileEntry(name: "energy", value: 1_234_567), StateFileEntry(name: "water", value: 42), StateFileEntry(name: "gas_m³", value: Int64.max)]
        let kept = [StateFileEntry(name: "old", value: 0)]
        let text = CounterFile.format(totals, kept: kept)
        #expect(text.hasPrefix(CounterFile.header + "\nformat 1\nenergy 1234567\nwater 42\n"))
        #expect(try CounterFile.parse(Array(text.utf8), path: "f") == totals + kept)
        #expect(try CounterFile.parse(Array(CounterFile.format([]).utf8), path: "f") == [])
    }

    @Test func parseAcceptsCommentsBlankLinesTabsAndCRLF() throws {
        let text = "\n  # a note\nformat 1\r\n\n\tenergy \t 17\r\n# water 3\nwater 0007"
        #expect(try CounterFile.parse(Array(text.utf8), path: "f") == [StateFileEntry(name: "energy", value: 17), StateFileEntry(name: "water", value: 7)])
    }

    @Test func namesAreCheckedAsTheFileNeedsThem() {
        #expect(StateFileFormat.isValidName("energy"))
        #expect(StateFileFormat.isValidName(String(repeating: "é", count: 64)))
        #expect(!StateFileFormat.isValidName(String(repeating: "a", count: 65)))
        #expect(!StateFileFormat.isValidName(""))
        #expect(!StateFileFormat.isValidName("two words"))
        #expect(!StateFileFormat.isValidName("tab\there"))
        #expect(!StateFileFormat.isValidName("no\u{A0}break"))
        #expect(!StateFileFormat.isValidName("bell\u{7}"))
        #expect(!StateFileFormat.isValidName("#comment"))
    }

    /// Parses `text`, expecting an error; returns it.
    func parseError(_ text: String, path: String = "/var/lib/gpio-debounce/counters") -> KeptStateError? {
        parseError(Array(text.utf8), path: path)
    }

    func parseError(_ bytes: [UInt8], path: String = "/var/lib/gpio-debounce/counters") -> KeptStateError? {
        do {
            let totals = try CounterFile.parse(bytes, path: path)
            Issue.record("parsed: \(totals)")
            return nil
        } catch {
            return error
        }
    }

    @Test func aForeignFileIsRefusedSayingWhatToDo() throws {
        let path = "/var/lib/gpio-debounce/counters"
        let yaml = try #require(parseError("buttons:\n  - name: a\n"))
        #expect(yaml == .foreign(path: path, line: 1, found: "buttons:", kind: .counters))
        #expect(yaml.description.contains("'\(path)' is not a gpio-debounce counter state file"))
        #expect(yaml.description.contains("move it away, or give run another --state-dir; it is left as it is"))
        #expect(parseError("# only a comment\n\n") == .foreign(path: path, line: 0, found: nil, kind: .counters))
        #expect(parseError("energy 5\nformat 1\n") == .foreign(path: path, line: 1, found: "energy 5", kind: .counters))
        #expect(parseError([0xFF, 0xFE, 0x0A]) == .foreign(path: path, line: 1, found: nil, kind: .counters))
        let newer = try #require(parseError("# x\nformat 2\nenergy 1\n"))
        #expect(newer == .unsupportedFormat(path: path, line: 2, version: "2"))
        #expect(newer.description.hasPrefix("\(path):2: `format 2`"))
    }

    @Test func anEmptyFileIsACutOffWriteAndSaysHowToRestore() throws {
        let error = try #require(parseError(""))
        #expect(error == .empty(path: "/var/lib/gpio-debounce/counters", kind: .counters))
        #expect(error.description.contains("cut off"))
        #expect(error.description.contains("Put them back by hand"))
        #expect(error.description.contains("`format 1`"))
    }

    @Test func badLinesNameTheirLine() throws {
        let path = "/var/lib/gpio-debounce/counters"
        let header = "# c\nformat 1\nenergy 5\n"
        let lone = try #require(parseError(header + "water\n"))
        #expect(lone == .malformedLine(path: path, line: 4, reason: "'water' has no total", kind: .counters))
        #expect(lone.description.hasPrefix("\(path):4: 'water' has no total; a line is `NAME TOTAL`"))
        #expect(parseError(header + "water 1 2\n") == .malformedLine(path: path, line: 4, reason: "it has 3 fields, not 2", kind: .counters))
        #expect(parseError(Array(header.utf8) + [0x77, 0xC0, 0x20, 0x31]) == .malformedLine(path: path, line: 4, reason: "it is not UTF-8 text", kind: .counters))
        #expect(parseError(header + "be\u{7}ll 1\n") == .badName(path: path, line: 4, name: "be\u{7}ll"))
        let long = String(repeating: "x", count: 65)
        #expect(parseError(header + "\(long) 1\n") == .badName(path: path, line: 4, name: long))
        for bad in ["-1", "+1", "1.5", "1e3", "9223372036854775808", "99999999999999999999999", "١٢"] {
            let error = try #require(parseError(header + "water \(bad)\n"))
            #expect(error == .badTotal(path: path, line: 4, name: "water", text: bad, kind: .counters))
            #expect(error.description.contains("is not a whole number from 0 to 9223372036854775807"))
        }
        #expect(try CounterFile.parse(Array((header + "water 9223372036854775807\n").utf8), path: path).last?.value == Int64.max)
        let twice = try #require(parseError(header + "water 1\nenergy 6\n"))
        #expect(twice == .duplicateName(path: path, line: 5, name: "energy", firstLine: 3, kind: .counters))
        #expect(twice.description.contains("also on line 3"))
    }

    @Test func aFileOverOneMebibyteIsRefused() throws {
        var text = "format 1\n"
        var index = 0
        while text.utf8.count <= StateFileFormat.maximumBytes {
            text += "counter\(index) \(index)\n"
            index += 1
        }
        let error = try #require(parseError(text))
        #expect(error == .tooLarge(path: "/var/lib/gpio-debounce/counters", bytes: text.utf8.count))
        #expect(error.description.contains("larger than 1024 KiB"))
    }

    // MARK: The state directory

    @Test func theDefaultStateDirectory() throws {
        #expect(try StateDirectory.defaultPath(effectiveUserID: 0, environment: ["HOME": "/root"]) == "/var/lib/gpio-debounce")
        #expect(try StateDirectory.defaultPath(effectiveUserID: 0, environment: ["STATE_DIRECTORY": "/var/lib/gd"]) == "/var/lib/gd")
        #expect(try StateDirectory.defaultPath(effectiveUserID: 1000, environment: ["STATE_DIRECTORY": "/a:/b", "HOME": "/home/pi"]) == "/a")
        #expect(try StateDirectory.defaultPath(effectiveUserID: 1000, environment: ["HOME": "/home/pi"]) == "/home/pi/.local/state/gpio-debounce")
        #expect(try StateDirectory.defaultPath(effectiveUserID: 1000, environment: ["HOME": "/home/pi/"]) == "/home/pi/.local/state/gpio-debounce")
        #expect(
            try StateDirectory.defaultPath(effectiveUserID: 1000, environment: ["HOME": "/home/pi", "XDG_STATE_HOME": "/srv/state"])
                == "/srv/state/gpio-debounce")
        #expect(
            try StateDirectory.defaultPath(effectiveUserID: 1000, environment: ["HOME": "/home/pi", "XDG_STATE_HOME": "relative"])
                == "/home/pi/.local/state/gpio-debounce")
        #expect(
            try StateDirectory.defaultPath(effectiveUserID: 1000, environment: ["HOME": "/home/pi", "STATE_DIRECTORY": ""])
                == "/home/pi/.local/state/gpio-debounce")
        #expect(throws: KeptStateError.noStateDirectory) { try StateDirectory.defaultPath(effectiveUserID: 1000, environment: [:]) }
        #expect(!(try StateDirectory.defaultPath()).isEmpty)
    }

    @Test func theStateDirectoryIsCreatedWithItsParents() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/a/b/c"
        try StateDirectory.create(path)
        try StateDirectory.create(path)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
        temporary.write("file", "not a directory\n")
        let error = try #require(throwing { () throws(KeptStateError) in try StateDirectory.create(temporary.path + "/file/state") })
        #expect(error == .cannotCreateDirectory(path: temporary.path + "/file", errno: .notDirectory))
        #expect(error.description.contains("cannot create the state directory '\(temporary.path)/file': a part of the path is not a directory"))
    }

    // MARK: The store

    @Test func aMissingFileStartsAtZeroAndTheFileHasTheTotals() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.path + "/state"
        let store = try StateStore(directory: directory, counters: Self.counters(["energy", "water"]), logger: Self.quiet)
        #expect(store.initialTotals == [0, 0])
        #expect(store.path == directory + "/counters")
        #expect(!store.consumesEdges)
        #expect(store.nextDeadlineNs == nil)
        store.consume(.count(.line(3), PulseCount(total: 1, timeNs: Self.s, onsetNs: Self.s)), nowNs: Self.s)
        store.consume(.count(.line(0), PulseCount(total: 99, timeNs: Self.s, onsetNs: Self.s)), nowNs: Self.s)  // not a counter
        #expect(store.nextDeadlineNs == 6 * Self.s)
        store.advance(toNs: 6 * Self.s - 1)
        #expect(store.writes == 0)
        store.advance(toNs: 6 * Self.s)
        #expect(store.writes == 1)
        #expect(store.nextDeadlineNs == nil)
        #expect(temporary.read("state/counters") == CounterFile.format([StateFileEntry(name: "energy", value: 1), StateFileEntry(name: "water", value: 0)]))
        store.finish(atNs: 7 * Self.s)
        #expect(store.writes == 1, "nothing unsaved: no write at the end")
    }

    /// A total set by hand (`reset`) is saved as a pulse's is, and a run after it starts from it.
    @Test func aTotalSetByHandIsSavedAsAPulsesIs() throws {
        let temporary = try TemporaryDirectory()
        do {  // the store lets go of its directory when it goes
            let store = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
            store.consume(.count(.line(3), PulseCount(total: 5, timeNs: Self.s, onsetNs: Self.s)), nowNs: Self.s)
            store.consume(.totalReset(.line(3), CounterReading(rate: 0, ratePerMinute: 0, timeNs: 2 * Self.s, total: 41_000)), nowNs: 2 * Self.s)
            store.finish(atNs: 3 * Self.s)
        }
        #expect(temporary.read("counters").contains("\nenergy 41000\n"))
        #expect(try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet).initialTotals == [41_000])
    }

    /// 10 pulses a second for 60 s with a 5 s flush, driven as the loop drives a sink (a wakeup at each
    /// pulse and at the store's deadline): the file is written 12 times (at 5.1 s, 10.2 s... 56.1 s,
    /// 5.1 s apart, each time the first unsaved pulse's time plus 5 s, and once at the end).
    @Test func tenPulsesASecondForAMinuteWriteTwelveTimes() throws {
        let temporary = try TemporaryDirectory()
        try playTenPulsesASecond(in: temporary)
        let again = try StateStore(directory: temporary.path + "/", counters: Self.counters(["energy"]), logger: Self.quiet)
        #expect(again.initialTotals == [600])
    }

    func playTenPulsesASecond(in temporary: TemporaryDirectory) throws {
        let store = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
        var writeTimes: [Int64] = []
        func wake(_ nowNs: Int64, pulse: Int64?) {
            if let pulse { store.consume(.count(.line(3), PulseCount(total: pulse, timeNs: nowNs, onsetNs: nowNs)), nowNs: nowNs) }
            let before = store.writes
            store.advance(toNs: nowNs)
            if store.writes > before {
                writeTimes.append(nowNs)
                let saved = temporary.read("counters")
                #expect(saved.contains("\nenergy \(pulse ?? -1)\n"), "at \(nowNs) ns")
            }
        }
        var pulse: Int64 = 1
        while pulse <= 600 {
            let pulseNs = pulse * 100 * Self.ms
            if let due = store.nextDeadlineNs, due < pulseNs {
                wake(due, pulse: nil)
            } else {
                wake(pulseNs, pulse: pulse)
                pulse += 1
            }
        }
        #expect(writeTimes == (1...11).map { Int64($0) * 5_100 * Self.ms })
        #expect(zip(writeTimes, writeTimes.dropFirst()).allSatisfy { $1 - $0 >= 5 * Self.s })
        store.finish(atNs: 60 * Self.s)
        #expect(store.writes == 12)
        #expect(temporary.read("counters").contains("\nenergy 600\n"))
    }

    /// The same through the event loop in virtual time: the counter's line's pulses, debounced and
    /// counted from the file's total, reach the store, and the next run starts where this one ended.
    @Test func throughTheEventLoopTheNextRunGoesOn() throws {
        let temporary = try TemporaryDirectory()
        temporary.write("counters", "format 1\nenergy 1000\n")
        var edges: [Edge] = []
        for index in 0..<40 {
            let startNs = Self.s + Int64(index) * 250 * Self.ms
            edges += [Edge(level: .low, timeNs: startNs), Edge(level: .high, timeNs: startNs + 50 * Self.ms)]
        }
        do {
            let store = try StateStore(
                directory: temporary.path, counters: [StateStore.Entry(name: "energy", input: 0, file: .counters, flushIntervalNs: 2 * Self.s)], logger: Self.quiet)
            #expect(store.initialTotals == [1000])
            let run = try VirtualRun.play(
                SimulatedLines(initialLevel: .high, script: edges),
                plans: [LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: 5 * Self.ms)), role: .counter(initialTotal: store.initialTotals[0]))],
                sinks: [store])
            #expect(run.outputs.count { if case .count = $0 { true } else { false } } == 40)
            #expect(store.totals == [1040])
            #expect(store.writes == 5, "at 3 s, 5.25 s, 7.5 s, 9.75 s and the end: \(store.writes) writes")
        }
        let next = try StateStore(
            directory: temporary.path, counters: [StateStore.Entry(name: "energy", input: 0, file: .counters, flushIntervalNs: 2 * Self.s)], logger: Self.quiet)
        #expect(next.initialTotals == [1040])
    }

    /// A write that fails (here the file's name is taken by a directory, which stops root too) is a
    /// warning, once, not an error: counting goes on, the write is tried again one interval later, and
    /// succeeds once the cause is gone.
    @Test func aFailedWriteIsAWarningAndIsTriedAgain() throws {
        let temporary = try TemporaryDirectory()
        let log = LogCapture()
        let store = try StateStore(directory: temporary.path, counters: Self.counters(["water"]), logger: log.logger)
        #expect(mkdir(temporary.path + "/counters", 0o755) == 0)
        temporary.write("counters/keep", "x")
        store.consume(.count(.line(3), PulseCount(total: 1, timeNs: 0, onsetNs: 0)), nowNs: 0)
        store.advance(toNs: 5 * Self.s)
        #expect(store.writes == 0 && store.failedWrites == 1)
        #expect(store.nextDeadlineNs == 10 * Self.s)
        store.consume(.count(.line(3), PulseCount(total: 2, timeNs: 6 * Self.s, onsetNs: 6 * Self.s)), nowNs: 6 * Self.s)
        store.advance(toNs: 10 * Self.s)
        #expect(store.failedWrites == 2)
        let warnings = log.messages.filter { $0.level == .warning }
        #expect(warnings.count == 1, "one warning for the failures in a row: \(log.messages)")
        let warning = try #require(warnings.first?.text)
        #expect(warning.contains("cannot save the counters' totals"))
        #expect(warning.contains("1 pulse of water not saved"))
        #expect(warning.contains("is a directory: move it away"))
        #expect(warning.contains("counting goes on"))
        #expect(unlink(temporary.path + "/counters/keep") == 0 && rmdir(temporary.path + "/counters") == 0)
        store.advance(toNs: 15 * Self.s)
        #expect(store.writes == 1)
        #expect(temporary.read("counters").contains("\nwater 2\n"))
        #expect(log.messages.contains { $0.level == .notice && $0.text.contains("saved to") && $0.text.contains("again") })
    }

    /// A failure at the end is an error that lists the totals to put back by hand; `finish` does not throw.
    @Test func aFailedFinalWriteListsTheTotals() throws {
        let temporary = try TemporaryDirectory()
        let log = LogCapture()
        let store = try StateStore(directory: temporary.path, counters: Self.counters(["water"]), logger: log.logger)
        #expect(mkdir(temporary.path + "/counters", 0o755) == 0)
        temporary.write("counters/keep", "x")
        store.consume(.count(.line(3), PulseCount(total: 7, timeNs: 0, onsetNs: 0)), nowNs: 0)
        store.finish(atNs: Self.s)
        let error = try #require(log.messages.first { $0.level == .error }?.text)
        #expect(error.contains("put back by hand") && error.contains("water 7"))
    }

    /// A write cut off by `kill -9` leaves its temporary file: the next start removes it, and nothing else.
    @Test func anUnfinishedWriteIsRemovedAtTheNextStart() throws {
        let temporary = try TemporaryDirectory()
        temporary.write(".counters.a1B2c3", "format 1\nenergy 1")
        temporary.write(".counters.notours", "x")
        temporary.write("counters", "format 1\nenergy 5\n")
        let log = LogCapture()
        let store = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: log.logger)
        #expect(store.initialTotals == [5])
        #expect(access(temporary.path + "/.counters.a1B2c3", F_OK) != 0)
        #expect(access(temporary.path + "/.counters.notours", F_OK) == 0)
        #expect(log.messages.contains { $0.level == .notice && $0.text.contains(".counters.a1B2c3") })
    }

    @Test func aSecondStoreOnTheSameDirectoryIsRefused() throws {
        let temporary = try TemporaryDirectory()
        var first: StateStore? = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
        let error = try #require(throwing { () throws(KeptStateError) in
            _ = try StateStore(directory: temporary.path, counters: Self.counters(["water"]), logger: Self.quiet)
        })
        #expect(error == .locked(directory: temporary.path))
        #expect(error.description == "another gpio-debounce run keeps its state in '\(temporary.path)': stop it, or give this one another --state-dir")
        #expect(first?.writes == 0)
        first = nil
        _ = try StateStore(directory: temporary.path, counters: Self.counters(["water"]), logger: Self.quiet)
    }

    /// A lock held elsewhere for less than `StateDirectoryLock.patienceMs` (as by a child process that
    /// another thread is starting, from its fork to its exec) is waited for, not refused; one held
    /// longer is refused.
    @Test func aLockLetGoWithinThePatienceIsTaken() throws {
        let temporary = try TemporaryDirectory()
        let held = open(temporary.path + "/" + StateStore.lockFileName, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let letGo = Thread {
            usleep(50_000)
            close(held)
        }
        letGo.start()
        let started = ContinuousClock.now
        let store = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
        let waitedMs = (ContinuousClock.now - started) / .milliseconds(1)
        #expect(waitedMs >= 40 && waitedMs < Double(StateDirectoryLock.patienceMs), "waited \(waitedMs) ms")
        #expect(store.writes == 0)
    }

    @Test func namesTheRunDoesNotCountAreKept() throws {
        let temporary = try TemporaryDirectory()
        temporary.write("counters", "format 1\nold_gas 12345\nenergy 10\nretired 7\n")
        let store = try StateStore(directory: temporary.path, counters: Self.counters(["water", "energy"]), logger: Self.quiet)
        #expect(store.initialTotals == [0, 10])
        #expect(store.keptTotals == [StateFileEntry(name: "old_gas", value: 12345), StateFileEntry(name: "retired", value: 7)])
        store.consume(.count(.line(4), PulseCount(total: 11, timeNs: 0, onsetNs: 0)), nowNs: 0)
        store.finish(atNs: Self.s)
        let text = temporary.read("counters")
        #expect(try CounterFile.parse(Array(text.utf8), path: "f") == [
            StateFileEntry(name: "water", value: 0), StateFileEntry(name: "energy", value: 11),
            StateFileEntry(name: "old_gas", value: 12345), StateFileEntry(name: "retired", value: 7),
        ])
        #expect(text.contains(CounterFile.keptHeader))
    }

    /// A store dropped without `finish` (as `kill -9` leaves it) loses the pulses since its last write,
    /// no more: at most one interval's.
    @Test func killNineLosesAtMostOneInterval() throws {
        let temporary = try TemporaryDirectory()
        var lastWritten: Int64 = 0
        do {
            let store = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
            for pulse in Int64(1)...137 {
                let nowNs = pulse * 300 * Self.ms
                store.consume(.count(.line(3), PulseCount(total: pulse, timeNs: nowNs, onsetNs: nowNs)), nowNs: nowNs)
                let before = store.writes
                store.advance(toNs: nowNs)
                if store.writes > before { lastWritten = pulse }
            }
            #expect(store.writes > 0)
        }
        let next = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
        #expect(next.initialTotals == [lastWritten])
        #expect(137 - lastWritten <= 5 * Self.s / (300 * Self.ms), "lost \(137 - lastWritten) pulses of 300 ms in a 5 s interval")
    }

    /// An invalid file is refused and left exactly as it was (no write, not even at the end).
    @Test func anInvalidFileIsNeverOverwritten() throws {
        let temporary = try TemporaryDirectory()
        let yaml = "buttons:\n  - name: a\n    line: 17\n"
        temporary.write("counters", yaml)
        let error = try #require(throwing { () throws(KeptStateError) in
            _ = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
        })
        #expect(error == .foreign(path: temporary.path + "/counters", line: 1, found: "buttons:", kind: .counters))
        #expect(temporary.read("counters") == yaml)
        temporary.write("counters", "")
        let empty = try #require(throwing { () throws(KeptStateError) in
            _ = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
        })
        #expect(empty == .empty(path: temporary.path + "/counters", kind: .counters))
    }

    @Test func unreadableAndUnsuitableStatesAreTypedErrors() throws {
        let temporary = try TemporaryDirectory()
        #expect(mkdir(temporary.path + "/counters", 0o755) == 0)
        let directory = try #require(throwing { () throws(KeptStateError) in
            _ = try StateStore(directory: temporary.path, counters: Self.counters(["energy"]), logger: Self.quiet)
        })
        #expect(directory == .unreadable(path: temporary.path + "/counters", errno: .isDirectory))
        #expect(directory.description.contains("it is a directory"))
        temporary.write("file", "x")
        let notDirectory = try #require(throwing { () throws(KeptStateError) in
            _ = try StateStore(directory: temporary.path + "/file/state", counters: Self.counters(["energy"]), logger: Self.quiet)
        })
        #expect(notDirectory == .cannotCreateDirectory(path: temporary.path + "/file", errno: .notDirectory))
        let other = try TemporaryDirectory()
        #expect(throws: KeptStateError.unsuitableName(name: "two words", kind: .counters)) {
            _ = try StateStore(directory: other.path, counters: Self.counters(["two words"]), logger: Self.quiet)
        }
        #expect(throws: KeptStateError.duplicateEntry(name: "a", kind: .counters)) {
            _ = try StateStore(directory: other.path, counters: Self.counters(["a", "a"]), logger: Self.quiet)
        }
    }

    // MARK: Helpers

    /// Counters on lines 3, 4... with a 5 s flush.
    static func counters(_ names: [String]) -> [StateStore.Entry] {
        names.enumerated().map { StateStore.Entry(name: $1, input: 3 + $0, file: .counters, flushIntervalNs: 5 * s) }
    }

    func throwing(_ body: () throws(KeptStateError) -> Void) -> KeptStateError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }
}

/// A directory under /tmp (`mkdtemp`), removed with its contents when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/gd-counters-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw Errno(rawValue: errno) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func write(_ name: String, _ text: String) {
        let descriptor = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(descriptor >= 0, "cannot create \(name)")
        let bytes = Array(text.utf8)
        precondition(bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        close(descriptor)
    }

    func read(_ name: String) -> String {
        let descriptor = open(path + "/" + name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "<cannot open \(name)>" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A logger that keeps what it is given.
final class LogCapture: Sendable {
    struct Message: Sendable {
        var level: Logger.Level
        var text: String
    }

    private let kept = Mutex<[Message]>([])

    var messages: [Message] { kept.withLock { $0 } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(capture: self) }
    }

    fileprivate func append(_ message: Message) { kept.withLock { $0.append(message) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(Message(level: event.level, text: event.message.description))
        }
    }
}
