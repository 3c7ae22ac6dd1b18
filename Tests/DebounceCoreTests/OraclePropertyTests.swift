import DebounceCore
import Simulation
import PropertyBased
import Testing

/// The debouncer against a direct reading of the `defer(W)` definition, and against arbitrary edge
/// sequences (duplicates, equal and backwards timestamps) that no real button makes.
@Suite struct OraclePropertyTests {
    /// Random edges: gaps of 0 to 3 W (so some are exactly W), levels at random (so some are duplicates).
    static func edges(seed: UInt64, count: Int, windowNs: Int64, allowBackwards: Bool) -> [Edge] {
        var random = SplitMix64(seed: seed)
        var timeNs: Int64 = 0
        return (0..<count).map { _ in
            let choice = random.next() % 8
            switch choice {
            case 0: break  // same instant
            case 1: timeNs += windowNs  // exactly the window
            case 2 where allowBackwards: timeNs -= Int64(random.next() % UInt64(windowNs + 1))
            default: timeNs += Int64(random.next() % UInt64(3 * windowNs + 1))
            }
            return Edge(level: random.next() % 2 == 0 ? .low : .high, timeNs: timeNs)
        }
    }

    /// Strategy `kind` (0: defer, 1: eager, 2: eager with a glitch window) with window `windowNs`.
    static func strategy(_ kind: Int, windowNs: Int64) -> DebounceStrategy {
        switch kind {
        case 0: .defer(windowNs: windowNs)
        case 1: .eager(lockoutNs: windowNs)
        default: .eager(lockoutNs: windowNs, glitchNs: windowNs / 3)
        }
    }

    /// `defer(W)` read straight from its definition: bursts are edges closer than or exactly W apart;
    /// after each burst, the level held for W and is reported if it differs; the onset is the burst's
    /// first edge that moved the level away from the reported state.
    static func deferOracle(initial: Level, edges: [Edge], windowNs: Int64) -> [ButtonEvent] {
        var events: [ButtonEvent] = []
        var pressed = initial == .low
        var raw = initial
        var onset: Int64?
        var burstActive = false
        for (index, edge) in edges.enumerated() {
            if edge.level == raw && !burstActive { continue }  // a duplicate while settled
            burstActive = true
            raw = edge.level
            if (raw == .low) != pressed, onset == nil { onset = edge.timeNs }
            let nextGapEndsBurst = index + 1 == edges.count || edges[index + 1].timeNs > edge.timeNs + windowNs
            if nextGapEndsBurst {
                if (raw == .low) != pressed {
                    pressed.toggle()
                    events.append(ButtonEvent(kind: pressed ? .press : .release, timeNs: edge.timeNs + windowNs, onsetNs: onset ?? -1))
                }
                onset = nil
                burstActive = false
            }
        }
        return events
    }

    @Test func deferMatchesItsDefinition() async {
        await propertyCheck(count: 3000, input: Gen.uint64(), Gen.int64(in: 0...50), Gen.int(in: 0...60), Gen.bool) {
            seed, windowNs, count, initialHigh in
            let initial: Level = initialHigh ? .high : .low
            let edges = Self.edges(seed: seed, count: count, windowNs: windowNs, allowBackwards: false)
            var debouncer = Debouncer(configuration: .init(both: .defer(windowNs: windowNs)), initialLevel: initial)
            var events: [ButtonEvent] = []
            for edge in edges {
                if let event = debouncer.receive(edge) { events.append(event) }
            }
            if let event = debouncer.finish() { events.append(event) }
            #expect(events == Self.deferOracle(initial: initial, edges: edges, windowNs: windowNs))
        }
    }

    @Test func arbitraryEdgesNeverBreakTheInvariants() async {
        await propertyCheck(
            count: 3000, input: Gen.uint64(), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int64(in: 1...50), Gen.int(in: 0...80)
        ) { seed, pressKind, releaseKind, windowNs, count in
            let edges = Self.edges(seed: seed, count: count, windowNs: windowNs, allowBackwards: true)
            let configuration = DebounceConfiguration(
                press: Self.strategy(pressKind, windowNs: windowNs), release: Self.strategy(releaseKind, windowNs: windowNs))
            var debouncer = Debouncer(configuration: configuration, initialLevel: .high)
            var events: [ButtonEvent] = []
            var lastTimeNs = Int64.min
            for edge in edges {
                if let event = debouncer.receive(edge) { events.append(event) }
                // A driver advancing part of the time, as a real one does between batches.
                if seed % 2 == 0, let event = debouncer.advance(toNs: debouncer.nowNs) { events.append(event) }
            }
            if let event = debouncer.finish() { events.append(event) }
            for (index, event) in events.enumerated() {
                #expect(event.kind == (index.isMultiple(of: 2) ? .press : .release))
                #expect(event.onsetNs <= event.timeNs)
                #expect(event.timeNs >= lastTimeNs)
                lastTimeNs = event.timeNs
            }
            #expect(debouncer.isSettled)
            #expect(debouncer.isPressed == (debouncer.rawLevel == .low))
            #expect(debouncer.statistics.edges == edges.count)
        }
    }

    /// A driver woken only for decisions that can report (`nextEventDeadlineNs`) gets exactly the
    /// events of one woken for every decision (`nextDeadlineNs`), and every decision it skips is one
    /// that reports nothing.
    @Test func wakingOnlyForDecisionsThatCanReportLosesNothing() async {
        await propertyCheck(
            count: 3000, input: Gen.uint64(), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int64(in: 1...50), Gen.int(in: 0...80)
        ) { seed, pressKind, releaseKind, windowNs, count in
            let configuration = DebounceConfiguration(
                press: Self.strategy(pressKind, windowNs: windowNs), release: Self.strategy(releaseKind, windowNs: windowNs))
            let edges = Self.edges(seed: seed, count: count, windowNs: windowNs, allowBackwards: seed % 3 == 0)
            /// Wakes at `wake(debouncer)` while that comes before the next edge, applies the edge, and
            /// advances to its time once the next edge is later; then finishes.
            func drive(wake: (Debouncer) -> Int64?) -> (events: [ButtonEvent], skippedReports: Int, final: Debouncer) {
                var debouncer = Debouncer(configuration: configuration, initialLevel: .high)
                var events: [ButtonEvent] = []
                var skippedReports = 0
                for (index, edge) in edges.enumerated() {
                    while let dueNs = wake(debouncer), dueNs < edge.timeNs, dueNs >= debouncer.nowNs {
                        if let event = debouncer.advance(toNs: dueNs) { events.append(event) }
                    }
                    // A decision due before the edge that this driver was not woken for must report nothing.
                    if let dueNs = debouncer.nextDeadlineNs, dueNs < edge.timeNs {
                        var probe = debouncer
                        if probe.advance(toNs: dueNs) != nil { skippedReports += 1 }
                    }
                    if let event = debouncer.receive(edge) { events.append(event) }
                    if index + 1 == edges.count || edges[index + 1].timeNs > edge.timeNs {
                        if let event = debouncer.advance(toNs: edge.timeNs) { events.append(event) }
                    }
                }
                if let event = debouncer.finish() { events.append(event) }
                return (events, skippedReports, debouncer)
            }
            let everyDecision = drive(wake: \.nextDeadlineNs)
            let reportingOnly = drive(wake: \.nextEventDeadlineNs)
            #expect(reportingOnly.events == everyDecision.events)
            #expect(reportingOnly.skippedReports == 0)
            #expect(reportingOnly.final.isPressed == everyDecision.final.isPressed)
            #expect(reportingOnly.final.statistics == everyDecision.final.statistics)
        }
    }
}
