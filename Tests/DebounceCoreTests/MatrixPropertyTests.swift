import DebounceCore
import PropertyBased
import Simulation
import Testing

/// `MatrixScanner` against the physics of `SimulatedMatrix`: random bouncy presses, one key at a time
/// and overlapping, each key's changes through a `Debouncer` of 2 to 3 scan intervals.
@Suite struct MatrixPropertyTests {
    static let intervalNs: Int64 = 10_000_000

    /// A random matrix of 1 to 4 rows and columns (at least `minimum` of each), settle 10 to 50 µs.
    static func configuration(diodes: Bool, minimum: Int = 1, using random: inout SplitMix64) -> MatrixConfiguration {
        MatrixConfiguration(
            rows: Int.random(in: minimum...4, using: &random), columns: Int.random(in: minimum...4, using: &random), diodes: diodes,
            settleNs: Int64.random(in: 10_000...50_000, using: &random), scanIntervalNs: intervalNs)
    }

    /// `defer` with a window of 2 to 3 scan intervals: longer than bounce plus one interval, so that a
    /// key read down and up again while bouncing never makes an event of its own.
    static func debounce(using random: inout SplitMix64) -> DebounceConfiguration {
        DebounceConfiguration(both: .defer(windowNs: Int64.random(in: (2 * intervalNs)...(3 * intervalNs), using: &random)))
    }

    /// Whether three distinct keys are three corners of a rectangle (two rows, two columns).
    static func threeCorners(_ keys: [Int], columns: Int) -> Bool {
        Set(keys).count == 3 && Set(keys.map { $0 / columns }).count == 2 && Set(keys.map { $0 % columns }).count == 2
    }

    /// `count` presses: each 20 to 120 ms after the previous one (and, for `overlapping: false`, after the
    /// previous release's bounce), held 60 to 400 ms; a key pressed again only 60 ms after its release.
    /// With `avoidingGhosts`, no key is pressed that could be held with two others as three corners of a
    /// rectangle (each press counted from its first edge to the end of its release's bounce).
    static func presses(
        count: Int, overlapping: Bool, avoidingGhosts: Bool, configuration: MatrixConfiguration, using random: inout SplitMix64
    ) -> (presses: [MatrixRun.Press], contacts: [[Edge]]) {
        var planned: [(key: Int, pressNs: Int64, releaseNs: Int64)] = []
        var freeFromNs = [Int64](repeating: 0, count: configuration.keyCount)
        let slackNs = MatrixRun.maximumBounceNs
        var timeNs: Int64 = 1_000_000
        while planned.count < count {
            timeNs += Int64.random(in: 20_000_000...120_000_000, using: &random)
            if !overlapping, let last = planned.last { timeNs = max(timeNs, last.releaseNs + slackNs + 20_000_000) }
            let releaseNs = timeNs + Int64.random(in: 60_000_000...400_000_000, using: &random)
            let held = planned.filter { $0.releaseNs + slackNs >= timeNs }
            let candidates = (0..<configuration.keyCount).filter { key in
                guard freeFromNs[key] <= timeNs else { return false }
                guard avoidingGhosts else { return true }
                return !held.indices.contains { first in
                    held.indices.contains { second in
                        second > first && held[first].releaseNs + slackNs >= held[second].pressNs
                            && threeCorners([held[first].key, held[second].key, key], columns: configuration.columns)
                    }
                }
            }
            guard let key = candidates.randomElement(using: &random) else { continue }
            planned.append((key, timeNs, releaseNs))
            freeFromNs[key] = releaseNs + slackNs + 60_000_000
        }
        return MatrixRun.contacts(planned, keyCount: configuration.keyCount, using: &random)
    }

    /// The debounced events are exactly the presses: each key's presses once each, in the order pressed,
    /// each released after its press; onsets within bounce plus one scan interval of the contact's move
    /// (a key found in a scan a row edge began may be stamped with that edge, up to a scan earlier).
    static func expectExact(_ events: [MatrixRun.KeyEvent], _ presses: [MatrixRun.Press], _ configuration: MatrixConfiguration, _ note: String) {
        let pressed = events.filter { $0.event.kind == .press }
        #expect(pressed.map(\.key) == presses.map(\.key), "\(note)")
        let scanNs = Int64(configuration.columns) * configuration.settleNs
        let lateNs = MatrixRun.maximumBounceNs + configuration.scanIntervalNs + scanNs
        for key in 0..<configuration.keyCount {
            let own = events.filter { $0.key == key }.map(\.event)
            let planned = presses.filter { $0.key == key }
            #expect(own.map(\.kind) == planned.flatMap { _ in [ButtonEvent.Kind.press, .release] }, "key \(key): \(note)")
            guard own.count == 2 * planned.count else { continue }
            for (index, press) in planned.enumerated() {
                let (down, up) = (own[2 * index], own[2 * index + 1])
                #expect(down.onsetNs >= press.pressNs - scanNs && down.onsetNs <= press.pressNs + lateNs, "key \(key): \(note)")
                #expect(up.onsetNs >= press.releaseNs && up.onsetNs <= press.releaseNs + lateNs, "key \(key): \(note)")
                #expect(up.timeNs > down.timeNs)
            }
        }
    }

    static func run(_ configuration: MatrixConfiguration, _ contacts: [[Edge]]) -> MatrixRun {
        var run = MatrixRun(configuration, contacts: contacts)
        run.run()
        return run
    }

    @Test func oneKeyAtATimeGivesExactlyTheKeysPressed() async {
        await propertyCheck(count: 300, input: Gen.uint64(), Gen.bool) { seed, diodes in
            var random = SplitMix64(seed: seed)
            let configuration = Self.configuration(diodes: diodes, using: &random)
            let debounce = Self.debounce(using: &random)
            let (presses, contacts) = Self.presses(count: 20, overlapping: false, avoidingGhosts: false, configuration: configuration, using: &random)
            let run = Self.run(configuration, contacts)
            Self.expectExact(run.debounced(debounce), presses, configuration, "seed \(seed)")
            #expect(run.scanner.ambiguousScans == 0 && run.scanner.isWaitingForEdge)
        }
    }

    @Test func overlappingPressesWithDiodesGiveExactlyTheKeysPressed() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var random = SplitMix64(seed: seed)
            let configuration = Self.configuration(diodes: true, using: &random)
            let debounce = Self.debounce(using: &random)
            let (presses, contacts) = Self.presses(count: 30, overlapping: true, avoidingGhosts: false, configuration: configuration, using: &random)
            let run = Self.run(configuration, contacts)
            Self.expectExact(run.debounced(debounce), presses, configuration, "seed \(seed)")
            #expect(run.scanner.ambiguousScans == 0)
        }
    }

    @Test func overlappingPressesWithoutDiodesThatNeverHoldThreeCornersAreExact() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var random = SplitMix64(seed: seed)
            let configuration = Self.configuration(diodes: false, using: &random)
            let debounce = Self.debounce(using: &random)
            let (presses, contacts) = Self.presses(count: 30, overlapping: true, avoidingGhosts: true, configuration: configuration, using: &random)
            let run = Self.run(configuration, contacts)
            Self.expectExact(run.debounced(debounce), presses, configuration, "seed \(seed)")
            #expect(run.scanner.ambiguousScans == 0)
        }
    }

    /// Keys pressed one after another (20 to 60 ms apart) in `order`, all held together for 50 to 200 ms,
    /// then released one after another in a random order.
    static func heldTogether(_ keys: [Int], keyCount: Int, using random: inout SplitMix64) -> (presses: [MatrixRun.Press], contacts: [[Edge]]) {
        var timeNs: Int64 = 1_000_000
        var pressTimes: [Int64] = []
        for _ in keys {
            timeNs += Int64.random(in: 20_000_000...60_000_000, using: &random)
            pressTimes.append(timeNs)
        }
        timeNs += Int64.random(in: 50_000_000...200_000_000, using: &random)
        var releaseTimes = [Int64](repeating: 0, count: keys.count)
        for index in keys.indices.shuffled(using: &random) {
            timeNs += Int64.random(in: 20_000_000...60_000_000, using: &random)
            releaseTimes[index] = timeNs
        }
        return MatrixRun.contacts(keys.indices.map { (keys[$0], pressTimes[$0], releaseTimes[$0]) }, keyCount: keyCount, using: &random)
    }

    @Test func withoutDiodesThreeCornersHeldNeverReportTheFourth() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var random = SplitMix64(seed: seed)
            let configuration = Self.configuration(diodes: false, minimum: 2, using: &random)
            let rows = Array((0..<configuration.rows).shuffled(using: &random).prefix(2))
            let columns = Array((0..<configuration.columns).shuffled(using: &random).prefix(2))
            let corners = rows.flatMap { row in columns.map { configuration.key(row: row, column: $0) } }.shuffled(using: &random)
            let (held, fourth) = (Array(corners.prefix(3)), corners[3])
            let (presses, contacts) = Self.heldTogether(held, keyCount: configuration.keyCount, using: &random)
            let run = Self.run(configuration, contacts)
            let events = run.debounced(Self.debounce(using: &random))
            #expect(!events.contains { $0.key == fourth }, "seed \(seed): the ghost \(fourth) reported")
            // The first two are exact: pressed before the rectangle closes, and released in order.
            let firstTwo = events.filter { $0.key == presses[0].key || $0.key == presses[1].key }
            #expect(firstTwo.filter { $0.event.kind == .press }.map(\.key) == [presses[0].key, presses[1].key], "seed \(seed)")
            #expect(firstTwo.filter { $0.event.kind == .release }.count == 2, "seed \(seed)")
            #expect(run.scanner.ambiguousScans > 0 && run.scanner.isWaitingForEdge)
        }
    }

    @Test func withDiodesEveryCombinationHeldIsExact() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var random = SplitMix64(seed: seed)
            let configuration = Self.configuration(diodes: true, minimum: 2, using: &random)
            let keys = Array((0..<configuration.keyCount).shuffled(using: &random).prefix(Int.random(in: 1...configuration.keyCount, using: &random)))
            let (presses, contacts) = Self.heldTogether(keys, keyCount: configuration.keyCount, using: &random)
            let run = Self.run(configuration, contacts)
            Self.expectExact(run.debounced(Self.debounce(using: &random)), presses, configuration, "seed \(seed)")
            #expect(run.scanner.ambiguousScans == 0)
        }
    }

    @Test func theGeneratorsMakeWhatThePropertiesNeed() {
        // Bounce on most transitions, overlapping presses holding three or more keys, and runs that
        // drain edges (a scan's own, and a bouncing key's).
        var random = SplitMix64(seed: 7)
        var bouncy = 0, transitions = 0, heldThree = 0, drained = 0
        for _ in 0..<50 {
            let configuration = Self.configuration(diodes: true, using: &random)
            let (presses, contacts) = Self.presses(count: 30, overlapping: true, avoidingGhosts: false, configuration: configuration, using: &random)
            transitions += 2 * presses.count
            bouncy += presses.filter { $0.pressSteadyNs > $0.pressNs }.count + presses.filter { $0.releaseSteadyNs > $0.releaseNs }.count
            if presses.contains(where: { press in presses.filter { $0.pressNs <= press.pressNs && $0.releaseNs > press.pressNs }.count >= 3 }) {
                heldThree += 1
            }
            if Self.run(configuration, contacts).drainedEdges > 0 { drained += 1 }
        }
        #expect(bouncy > transitions * 3 / 4 && heldThree > 25 && drained == 50)
    }
}
