import DebounceCore
import EventLoop
import Keypads
import Pipeline
import Simulation
import Testing

/// A keypad's keys through the one loop, in virtual time: a simulated matrix (`SimulatedMatrixPort`)
/// scanned by `KeypadSource`, each key a debounced line. The loop wakes for the scan's steps only
/// while a key is down, and never while none is.
@Suite struct KeypadLoopTests {
    static let ms: Int64 = 1_000_000
    static let layout = ["123A", "456B", "789C", "*0#D"].map(Array.init)
    static let matrix = MatrixConfiguration(rows: 4, columns: 4)

    /// Key `key` (row by row) closed cleanly from `downNs` to `upNs`.
    static func contacts(_ presses: [(key: Int, downNs: Int64, upNs: Int64)]) -> [[Edge]] {
        var contacts: [[Edge]] = Array(repeating: [], count: 16)
        for press in presses { contacts[press.key] += [Edge(level: .low, timeNs: press.downNs), Edge(level: .high, timeNs: press.upNs)] }
        return contacts
    }

    static func play(_ contacts: [[Edge]], matrix: MatrixConfiguration = matrix, codes: [CodePlan] = []) throws -> VirtualRun {
        let source = KeypadSource(configuration: matrix, port: SimulatedMatrixPort(matrix: SimulatedMatrix(configuration: matrix, keyEdges: contacts), startNs: 0))
        return try VirtualRun.play(source, plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 20 * ms)))], codes: codes))
    }

    /// One clean press of 5 held 100 ms: a press stamped at its row's edge (plus the debounce window) and a
    /// release; the wakeups are the scans' steps (a scan is a step per column and one to start it) while
    /// the key is down, and the debouncer's two decisions: none before the press, none after the release.
    @Test func aPressIsScannedWhileDownAndTheLoopSleepsOtherwise() throws {
        let run = try Self.play(Self.contacts([(key: 5, downNs: 1_000 * Self.ms, upNs: 1_100 * Self.ms)]))
        #expect(run.stop == .endOfInput)
        #expect(run.events.map(\.line) == [5, 5])
        #expect(run.events.map(\.event.kind) == [.press, .release])
        #expect(run.events[0].event.onsetNs == 1_000 * Self.ms)
        // The release is seen by the first scan after it: within one interval.
        #expect((1_100 * Self.ms..<1_110 * Self.ms).contains(run.events[1].event.onsetNs))
        let scans = try #require(run.loop.source as? KeypadSource).scans
        // The edge's scan, one every 10 ms while down (100 ms), the one that finds it up.
        #expect((11...12).contains(scans.all) && scans.ambiguous == 0)
        // Each scan: its start (or the edge's wakeup) and 4 reads; and the debouncer's two decisions.
        #expect(run.loop.wakeups <= 5 * scans.all + 2 + 1)
    }

    /// A key let go 5 µs after it came down, before its column's settle was over: its row's edge began a
    /// scan that found no key down. Nothing is reported, and the scan is counted unnamed; the next key,
    /// held, is reported and counts nothing.
    @Test func aKeyLetGoBeforeItsScanIsCountedUnnamed() throws {
        let run = try Self.play(Self.contacts([
            (key: 0, downNs: 100 * Self.ms, upNs: 100 * Self.ms + 5_000), (key: 6, downNs: 300 * Self.ms, upNs: 400 * Self.ms),
        ]))
        #expect(run.events.map(\.line) == [6, 6])
        let scans = try #require(run.loop.source as? KeypadSource).scans
        #expect(scans.unnamed == 1 && scans.ambiguous == 0)
    }

    /// A key that closes for good after the scan its first bounce began had read its column, while
    /// the scan went on: driving every column again at the scan's end pulls its row active, a real
    /// row's edge then, which begins the next scan. The press is reported (stamped at that edge) and
    /// so is its release; nothing is lost while the key is held.
    @Test func aKeyClosedAfterItsColumnWasReadIsFoundWhenTheColumnsAreDrivenAgain() throws {
        let startNs = 100 * Self.ms
        // Key 1 (row 0, column 1): a 5 µs bounce begins a scan at 100 ms (columns read at +10, +20, +30
        // and +40 µs); it closes again at +25 µs, after its column's read, and stays closed to 300 ms.
        var contacts = Self.contacts([])
        contacts[1] = [
            Edge(level: .low, timeNs: startNs), Edge(level: .high, timeNs: startNs + 5_000), Edge(level: .low, timeNs: startNs + 25_000),
            Edge(level: .high, timeNs: 300 * Self.ms),
        ]
        let run = try Self.play(contacts)
        #expect(run.events.map(\.line) == [1, 1])
        #expect(run.events.map(\.event.kind) == [.press, .release])
        #expect(run.events.first?.event.onsetNs == startNs + 40_000, "stamped when every column was driven again")
        let scans = try #require(run.loop.source as? KeypadSource).scans
        #expect(scans.unnamed == 1, "the bounce's scan named no key")
    }

    /// Nothing pressed for an hour: the run ends with no wakeup at all.
    @Test func anIdleKeypadWakesNothing() throws {
        let run = try Self.play(Self.contacts([]))
        #expect(run.events.isEmpty)
        #expect(run.loop.wakeups == 0)
    }

    /// Three corners of a rectangle held (1, 2 and 5) without diodes: the fourth (4) is never reported,
    /// and the three are (each pressed before the next, so each scan that adds one is unambiguous).
    @Test func aGhostKeyIsNeverReported() throws {
        let run = try Self.play(Self.contacts([
            (key: 0, downNs: 100 * Self.ms, upNs: 900 * Self.ms), (key: 1, downNs: 300 * Self.ms, upNs: 900 * Self.ms),
            (key: 5, downNs: 500 * Self.ms, upNs: 900 * Self.ms),
        ]))
        let pressed = run.events.filter { $0.event.kind == .press }.map(\.line)
        #expect(pressed == [0, 1])
        #expect(!run.events.contains { $0.line == 4 })
        let scans = try #require(run.loop.source as? KeypadSource).scans
        #expect(scans.ambiguous > 0)
        // With diodes, the same three are exactly the three.
        let exact = try Self.play(
            Self.contacts([
                (key: 0, downNs: 100 * Self.ms, upNs: 900 * Self.ms), (key: 1, downNs: 300 * Self.ms, upNs: 900 * Self.ms),
                (key: 5, downNs: 500 * Self.ms, upNs: 900 * Self.ms),
            ]), matrix: MatrixConfiguration(rows: 4, columns: 4, diodes: true))
        #expect(exact.events.filter { $0.event.kind == .press }.map(\.line) == [0, 1, 5])
        #expect(exact.events.filter { $0.event.kind == .release }.count == 3)
    }

    /// Typing "1234#" gives the code 1234 once, at the end key's press; typing "12#" (too short) none.
    @Test func aCodeTypedOnTheMatrixIsCollected() throws {
        let keys: [Character] = ["1", "2", "3", "4", "#", "1", "2", "#"]
        let index = Self.layout.joined().enumerated().reduce(into: [Character: Int]()) { $0[$1.element] = $1.offset }
        var presses: [(key: Int, downNs: Int64, upNs: Int64)] = []
        for (order, key) in keys.enumerated() {
            let downNs = Int64(order + 1) * 300 * Self.ms
            presses.append((key: index[key] ?? 0, downNs: downNs, upNs: downNs + 120 * Self.ms))
        }
        var configuration = CodeConfiguration()
        configuration.minLength = 4
        let plan = CodePlan(input: 0, configuration: configuration, keys: Self.layout.joined().enumerated().map { CodePlan.KeyLine(line: $0.offset, key: $0.element) })
        let run = try Self.play(Self.contacts(presses), codes: [plan])
        #expect(run.codes.map(\.code.code) == ["1234"])
        #expect(run.codes.first?.code.timeNs == run.events.first { $0.line == 14 && $0.event.kind == .press }?.event.timeNs)
    }
}
