import ConfigurationFile
import DebounceCore
import Inputs
import KeptState
import Logging
import Pipeline
import Testing

/// A file of the state directory is what its kind describes (`StateFile`): the store and the format
/// know no kind, so a file a new kind declares is read, written, locked and named in messages in its
/// own words, beside the files of the other kinds.
@Suite struct StateFileTests {
    static let s: Int64 = 1_000_000_000

    /// A kind the store has never heard of: a tank's level, in litres, never below -10.
    static let levels = StateFile(
        fileName: "levels", header: "# tank levels, in litres", fileNoun: "tank level file", entryNoun: "tank", anEntry: "a tank",
        entriesNoun: "tanks", valueNoun: "level", lineMeaning: "a tank's name and its level in litres", contents: "the tanks' levels",
        recovery: "the levels read off the gauges", freshStart: "empty", minimumValue: -10, valueWhenMissing: 5,
        keptIn: "tanks: levels kept in", lostChanges: { "\($0) litres of " }, simulationNote: { "tanks: simulated in \($0)" })

    @Test func aFileANewKindDescribesIsKeptInItsOwnWords() throws {
        let temporary = try TemporaryDirectory()
        temporary.write("levels", "format 1\nrain 40\nretired 3\n")
        let entries = [
            StateStore.Entry(name: "rain", input: 0, file: Self.levels, flushIntervalNs: Self.s),
            StateStore.Entry(name: "well", input: 1, file: Self.levels, flushIntervalNs: Self.s),
            StateStore.Entry(name: "energy", input: 2, file: .counters, flushIntervalNs: Self.s),
        ]
        let store = try StateStore(directory: temporary.path, entries: entries, logger: CounterStoreTests.quiet)
        #expect(store.files == [.counters, Self.levels])
        #expect(store.initialValues == [40, 5, 0], "the file's value, else the kind's value when missing")
        #expect(Self.levels.keptLine(path: store.path(of: Self.levels), entries: [("rain", 40)]) == "tanks: levels kept in \(temporary.path)/levels (rain 40)")
        store.consume(.count(.line(1), PulseCount(total: -50, timeNs: Self.s, onsetNs: Self.s)), nowNs: Self.s)
        store.finish(atNs: 2 * Self.s)
        #expect(store.writesOf == [Self.levels: 1], "the counters did not change: their file is not written")
        #expect(temporary.read("levels") == "# tank levels, in litres\nformat 1\nrain 40\nwell -10\n\(StateFile.keptHeader)\nretired 3\n")
    }

    @Test func itsMessagesUseItsWords() throws {
        let empty = KeptStateError.empty(path: "st/levels", kind: Self.levels)
        #expect(empty.description.contains("and the tanks' levels are lost"))
        #expect(empty.description.contains("`NAME LEVEL` per tank, the levels read off the gauges), or delete the file to start every tank at empty"))
        #expect(throws: KeptStateError.badTotal(path: "p", line: 2, name: "rain", text: "-11", kind: Self.levels)) {
            try StateFileFormat.parse(Array("format 1\nrain -11\n".utf8), path: "p", kind: Self.levels).count
        }
        let temporary = try TemporaryDirectory()
        let twice = [StateStore.Entry(name: "rain", input: 0, file: Self.levels, flushIntervalNs: Self.s),
                     StateStore.Entry(name: "rain", input: 1, file: Self.levels, flushIntervalNs: Self.s)]
        do {
            _ = try StateStore(directory: temporary.path, entries: twice, logger: CounterStoreTests.quiet)
            Issue.record("two tanks called rain were kept")
        } catch {
            #expect(error.description == "two tanks are called 'rain': give each its own name in the configuration")
        }
    }

    /// The two files' messages, whole, as the kinds' words make them.
    @Test func theCountersAndPositionsMessagesAreWhole() {
        let left = "; it is left as it is"
        #expect(KeptStateError.empty(path: "st/counters", kind: .counters).description == "'st/counters' is empty: a write of it was cut off "
            + "(a power cut before the file system had saved it), and the counters' totals are lost. Put them back by hand while gpio-debounce "
            + "is stopped (a line `format 1`, then a line `NAME TOTAL` per counter, the totals read off the meters or a backup), or delete the "
            + "file to start every counter at 0" + left)
        #expect(KeptStateError.empty(path: "st/positions", kind: .positions).description == "'st/positions' is empty: a write of it was cut off "
            + "(a power cut before the file system had saved it), and the encoders' positions are lost. Put them back by hand while gpio-debounce "
            + "is stopped (a line `format 1`, then a line `NAME POSITION` per encoder), or delete the file to start every encoder at 0 "
            + "(clamped into its min/max)" + left)
        #expect(KeptStateError.malformedLine(path: "p", line: 2, reason: "'volume' has no position", kind: .positions).description
            == "p:2: 'volume' has no position; a line is `NAME POSITION` (an encoder's name and its position): correct it while gpio-debounce "
            + "is stopped, or move the file away" + left)
        #expect(KeptStateError.malformedLine(path: "c", line: 3, reason: "it has 3 fields, not 2", kind: .counters).description
            == "c:3: it has 3 fields, not 2; a line is `NAME TOTAL` (a counter's name and its total in pulses): correct it while gpio-debounce "
            + "is stopped, or move the file away" + left)
        #expect(KeptStateError.foreign(path: "c", line: 0, found: nil, kind: .counters).description
            == "'c' is not a gpio-debounce counter state file (it has no `format 1` line): move it away, or give run another --state-dir" + left)
        #expect(KeptStateError.duplicateName(path: "c", line: 4, name: "water", firstLine: 2, kind: .counters).description
            == "c:4: 'water' is listed twice (also on line 2): keep the line with the right total, while gpio-debounce is stopped" + left)
        #expect(KeptStateError.duplicateName(path: "p", line: 4, name: "volume", firstLine: 2, kind: .positions).description
            == "p:4: 'volume' is listed twice (also on line 2): keep the line with the right position, while gpio-debounce is stopped" + left)
        #expect(KeptStateError.unsuitableName(name: "two words", kind: .counters).description
            == "the counter 'two words' cannot be kept in the state file: a counter's name is 1 to 64 characters, without spaces or control "
            + "characters, not starting with #; rename it in the configuration")
        #expect(KeptStateError.duplicateEntry(name: "volume", kind: .positions).description
            == "two encoders are called 'volume': give each its own name in the configuration")
    }

    /// Every kind's file has a name of its own (two kinds in one file would share one description's
    /// rules), none is the lock's, and every entry a kind keeps is in a file the registry lists (a
    /// simulation's directory removes only those).
    @Test func theKindsFilesAreDistinctAndListed() throws {
        let names = InputKinds.stateFiles.map(\.fileName)
        #expect(Set(names).count == names.count && !names.contains(StateStore.lockFileName), "\(names)")
        let configuration = try ConfigurationLoader.load(
            "counters: [{name: energy, line: 24}]\nencoders: [{name: volume, lines: [17, 27], restore: true}]\n", file: "kept.yaml")
        let kept = InputKinds.kept(of: configuration.roster)
        #expect(kept.count == 2 && kept.allSatisfy { InputKinds.stateFiles.contains($0.file) }, "\(kept)")
    }
}
