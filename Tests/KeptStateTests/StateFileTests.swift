import DebounceCore
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
}
