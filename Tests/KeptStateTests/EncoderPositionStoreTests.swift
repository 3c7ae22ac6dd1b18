import KeptState
import DebounceCore
import Pipeline
import Testing

/// The encoders' positions in the state directory (`restore: true`): the file's format, a restart
/// that goes on, the flush interval, a `kill -9`, a corrupt file, and the one lock shared with the counters.
@Suite struct EncoderPositionStoreTests {
    static let ms: Int64 = 1_000_000
    static let s: Int64 = 1_000_000_000

    static func rotation(_ encoder: Int, to position: Int, atNs nowNs: Int64) -> PipelineOutput {
        .rotation(OutputSource(input: encoder, line: 0), EncoderEvent(direction: .clockwise, position: position, timeNs: nowNs, onsetNs: nowNs))
    }

    /// Encoders 1, 2... of the run, named as given, with a 5 s flush.
    static func encoders(_ names: [String]) -> [StateStore.Entry] {
        names.enumerated().map { StateStore.Entry(name: $1, input: 1 + $0, file: .positions, flushIntervalNs: 5 * s) }
    }

    // MARK: The format

    @Test func positionsAreSignedAndReadBack() throws {
        let positions = [StateFileEntry(name: "volume", value: 37), StateFileEntry(name: "balance", value: -4)]
        let kept = [StateFileEntry(name: "old", value: -Int64.max)]
        let text = PositionFile.format(positions, kept: kept)
        #expect(text.hasPrefix(PositionFile.header + "\nformat 1\nvolume 37\nbalance -4\n"))
        #expect(try PositionFile.parse(Array(text.utf8), path: "p") == positions + kept)
        #expect(try PositionFile.parse(Array("format 1\r\n# x\n\tvolume\t-0\n".utf8), path: "p") == [StateFileEntry(name: "volume", value: 0)])
    }

    @Test func badPositionsNameTheirLineAndTheFile() throws {
        let path = "/var/lib/gpio-debounce/positions"
        for bad in ["+1", "--1", "-", "1.5", "-9223372036854775808", "9223372036854775808", "ten"] {
            do {
                let parsed = try PositionFile.parse(Array("format 1\nvolume \(bad)\n".utf8), path: path)
                Issue.record("parsed '\(bad)' as \(parsed)")
            } catch {
                #expect(error == .badTotal(path: path, line: 2, name: "volume", text: bad, kind: .positions))
                #expect(error.description.contains("the position of 'volume'"))
                #expect(error.description.contains("from -9223372036854775807 to 9223372036854775807"))
            }
        }
        #expect(throws: KeptStateError.foreign(path: path, line: 1, found: "volume: 3", kind: .positions)) {
            try PositionFile.parse(Array("volume: 3\n".utf8), path: path)
        }
        let foreign = KeptStateError.foreign(path: path, line: 1, found: "volume: 3", kind: .positions)
        #expect(foreign.description.contains("is not a gpio-debounce encoder position file"))
        let lone = KeptStateError.malformedLine(path: path, line: 2, reason: "'volume' has no position", kind: .positions)
        #expect(throws: lone) { try PositionFile.parse(Array("format 1\nvolume\n".utf8), path: path) }
        #expect(lone.description.contains("a line is `NAME POSITION`"))
        let empty = KeptStateError.empty(path: path, kind: .positions)
        #expect(throws: empty) { try PositionFile.parse([], path: path) }
        #expect(empty.description.contains("`NAME POSITION` per encoder") && empty.description.contains("delete the file"))
    }

    // MARK: The store

    /// A run turns the knob; the next one starts where it stopped. The counters' file is not written
    /// by a store whose counters did not count, nor the positions file by one without encoders.
    @Test func aRestartGoesOnFromThePositionTheRunLeft() throws {
        let temporary = try TemporaryDirectory()
        do {
            let store = try StateStore(directory: temporary.path, counters: [], encoders: Self.encoders(["volume", "menu"]), logger: CounterStoreTests.quiet)
            #expect(store.initialPositions == [nil, nil])
            #expect(store.positionsPath == temporary.path + "/positions")
            store.consume(Self.rotation(1, to: 12, atNs: Self.s), nowNs: Self.s)
            store.consume(Self.rotation(0, to: 99, atNs: Self.s), nowNs: Self.s)  // not restored
            store.consume(Self.rotation(1, to: 13, atNs: 2 * Self.s), nowNs: 2 * Self.s)
            #expect(store.nextDeadlineNs == 6 * Self.s)
            store.finish(atNs: 3 * Self.s)
            #expect(store.writes == 1)
        }
        #expect(temporary.read("positions") == PositionFile.format([StateFileEntry(name: "volume", value: 13), StateFileEntry(name: "menu", value: 0)]))
        #expect(temporary.read("counters") == "<cannot open counters>")
        let next = try StateStore(directory: temporary.path, counters: [], encoders: Self.encoders(["volume", "menu"]), logger: CounterStoreTests.quiet)
        #expect(next.initialPositions == [13, 0])
        #expect(next.positions == [13, 0])
        next.finish(atNs: 0)
        #expect(next.writes == 0, "nothing turned: no write")
    }

    /// A reset button's press (`reset_line:`) is kept as a detent is: the next run starts from it.
    @Test func aResetPositionIsSavedAsADetentsIs() throws {
        let temporary = try TemporaryDirectory()
        do {
            let store = try StateStore(directory: temporary.path, counters: [], encoders: Self.encoders(["volume"]), logger: CounterStoreTests.quiet)
            store.consume(Self.rotation(1, to: 12, atNs: Self.s), nowNs: Self.s)
            store.consume(.positionReset(OutputSource(input: 1, line: 0), position: -3, atNs: 2 * Self.s), nowNs: 2 * Self.s)
            store.consume(.positionReset(OutputSource(input: 0, line: 0), position: 40, atNs: 2 * Self.s), nowNs: 2 * Self.s)  // not restored
            #expect(store.positions == [-3])
            store.finish(atNs: 3 * Self.s)
        }
        #expect(temporary.read("positions") == PositionFile.format([StateFileEntry(name: "volume", value: -3)]))
    }

    /// A knob turned ten detents a second for a minute, with a 5 s flush: the file is written at most
    /// once per 5 s while it turns (11 times) and once at the end.
    @Test func turningWritesAtMostOncePerFlushInterval() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path, counters: [], encoders: Self.encoders(["volume"]), logger: CounterStoreTests.quiet)
        var writeTimes: [Int64] = []
        var detent = 1
        while detent <= 600 {
            let detentNs = Int64(detent) * 100 * Self.ms
            let nowNs: Int64
            if let due = store.nextDeadlineNs, due < detentNs {
                nowNs = due
            } else {
                nowNs = detentNs
                store.consume(Self.rotation(1, to: detent % 2 == 0 ? detent / 2 : -detent, atNs: nowNs), nowNs: nowNs)
                detent += 1
            }
            let before = store.writes
            store.advance(toNs: nowNs)
            if store.writes > before { writeTimes.append(nowNs) }
        }
        #expect(writeTimes.count == 11)
        #expect(zip(writeTimes, writeTimes.dropFirst()).allSatisfy { $1 - $0 >= 5 * Self.s })
        store.finish(atNs: 61 * Self.s)
        #expect(store.writes == 12)
        #expect(temporary.read("positions").contains("\nvolume 300\n"))
    }

    /// A store dropped without `finish` (as `kill -9` leaves it) loses at most one interval's detents:
    /// the next run starts from the position of the last write, no older.
    @Test func killNineLosesAtMostOneInterval() throws {
        let temporary = try TemporaryDirectory()
        var lastWritten: Int64 = 0
        var lastWrittenNs: Int64 = 0
        let endNs = 137 * 300 * Self.ms
        do {
            let store = try StateStore(directory: temporary.path, counters: [], encoders: Self.encoders(["volume"]), logger: CounterStoreTests.quiet)
            for detent in 1...137 {
                let nowNs = Int64(detent) * 300 * Self.ms
                store.consume(Self.rotation(1, to: detent, atNs: nowNs), nowNs: nowNs)
                let before = store.writes
                store.advance(toNs: nowNs)
                if store.writes > before { (lastWritten, lastWrittenNs) = (Int64(detent), nowNs) }
            }
            #expect(store.writes > 0)
        }
        let next = try StateStore(directory: temporary.path, counters: [], encoders: Self.encoders(["volume"]), logger: CounterStoreTests.quiet)
        #expect(next.initialPositions == [lastWritten])
        #expect(endNs - lastWrittenNs < 5 * Self.s, "the last write \(Double(endNs - lastWrittenNs) / 1e9) s before the kill")
    }

    /// A corrupt positions file stops the start and is left exactly as it was; a store without encoders
    /// does not read it (the counters go on).
    @Test func aCorruptFileIsRefusedAndLeftAlone() throws {
        let temporary = try TemporaryDirectory()
        let corrupt = "format 1\nvolume 12\nvolume 13\n"
        temporary.write("positions", corrupt)
        do {
            _ = try StateStore(directory: temporary.path, counters: [], encoders: Self.encoders(["volume"]), logger: CounterStoreTests.quiet)
            Issue.record("a corrupt positions file was read")
        } catch {
            #expect(error == .duplicateName(path: temporary.path + "/positions", line: 3, name: "volume", firstLine: 2, kind: .positions))
        }
        #expect(temporary.read("positions") == corrupt)
        let counting = try StateStore(directory: temporary.path, counters: CounterStoreTests.counters(["energy"]), logger: CounterStoreTests.quiet)
        counting.consume(.count(.line(3), PulseCount(total: 5, timeNs: Self.s, onsetNs: Self.s)), nowNs: Self.s)
        counting.finish(atNs: 2 * Self.s)
        #expect(temporary.read("positions") == corrupt)
        #expect(temporary.read("counters").contains("\nenergy 5\n"))
    }

    /// Counters and positions share one directory and one lock: one store keeps both files, each
    /// written only when its own entries changed, and a second store on the directory is refused.
    @Test func countersAndPositionsShareTheLock() throws {
        let temporary = try TemporaryDirectory()
        temporary.write("positions", "format 1\nretired 4\nvolume -3\n")
        let store = try StateStore(
            directory: temporary.path, counters: CounterStoreTests.counters(["energy"]), encoders: Self.encoders(["volume"]), logger: CounterStoreTests.quiet)
        #expect(store.initialTotals == [0] && store.initialPositions == [-3])
        #expect(store.keptPositions == [StateFileEntry(name: "retired", value: 4)])
        #expect(throws: KeptStateError.locked(directory: temporary.path)) {
            _ = try StateStore(directory: temporary.path, counters: [], encoders: Self.encoders(["volume"]), logger: CounterStoreTests.quiet)
        }
        store.consume(Self.rotation(1, to: -2, atNs: Self.s), nowNs: Self.s)
        store.advance(toNs: 6 * Self.s)
        #expect(store.writes == 1)
        #expect(temporary.read("counters") == "<cannot open counters>")
        #expect(temporary.read("positions") == PositionFile.format([StateFileEntry(name: "volume", value: -2)], kept: [StateFileEntry(name: "retired", value: 4)]))
        store.consume(.count(.line(3), PulseCount(total: 1, timeNs: 7 * Self.s, onsetNs: 7 * Self.s)), nowNs: 7 * Self.s)
        store.finish(atNs: 8 * Self.s)
        #expect(store.writes == 2)
        #expect(temporary.read("counters").contains("\nenergy 1\n"))
    }
}
