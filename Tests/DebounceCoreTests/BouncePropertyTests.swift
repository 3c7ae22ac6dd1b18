import DebounceCore
import EventLoop
import Pipeline
import Simulation
import PropertyBased
import Testing

/// Properties over thousands of randomly generated bouncy buttons, run through the same driver loop
/// as a real line (the `EventLoop` over virtual-time `SimulatedLines`).
@Suite struct BouncePropertyTests {
    /// A button whose bursts are bounded (at most 6.2 ms, no long tail), so that a window longer
    /// than that must recover every physical press exactly.
    static let boundedProfile: BounceProfile = {
        var profile = BounceProfile.typical
        profile.press.longBurstProbability = 0
        profile.release.longBurstProbability = 0
        profile.holdNs = 80_000_000...400_000_000
        profile.pauseNs = 50_000_000...600_000_000
        return profile
    }()

    /// Strategies whose windows exceed the longest bounded burst (and whose glitch window exceeds the
    /// widest EMI spike), from a small number `kind` and a window in milliseconds.
    static func strategy(kind: Int, windowMs: Int64) -> DebounceStrategy {
        switch kind {
        case 0: .defer(windowNs: windowMs * 1_000_000)
        case 1: .eager(lockoutNs: windowMs * 1_000_000)
        default: .eager(lockoutNs: windowMs * 1_000_000, glitchNs: 5_000 + windowMs * 10_000)
        }
    }

    struct Run {
        var cycles: [BouncyButton.Cycle] = []
        var delivered: [Edge] = []
        var events: [ButtonEvent] = []
        var finalTrueLevel: Level = .high
        var debouncer: Debouncer
        var stop: StopReason
    }

    static func run(seed: UInt64, profile: BounceProfile, presses: Int, configuration: DebounceConfiguration, drop: Double = 0) throws -> Run {
        var button = BouncyButton(profile: profile, seed: seed, activeLevel: configuration.activeLevel, presses: presses)
        var cycles: [BouncyButton.Cycle] = []
        while let cycle = button.nextCycle() { cycles.append(cycle) }
        let line = SimulatedLines(
            initialLevel: button.initialLevel, script: cycles.flatMap(\.edges), dropProbability: drop, seed: seed)
        let run = try VirtualRun.play(line, plans: [LinePlan(debounce: configuration)])
        let delivered = run.outputs.compactMap { if case .edge(let lineEdge) = $0 { lineEdge.edge } else { nil } }
        return Run(
            cycles: cycles, delivered: delivered, events: run.events.map(\.event), finalTrueLevel: line.readLevel(line: 0),
            debouncer: try #require(run.loop.pipeline.debouncer(line: 0)), stop: run.stop)
    }

    @Test func everyPhysicalPressGivesExactlyOnePressAndOneReleaseAtTheRightTimes() async {
        await propertyCheck(
            count: 1500,
            input: Gen.uint64(), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int64(in: 7...40), Gen.bool
        ) { seed, pressKind, releaseKind, windowMs, activeHigh in
            let configuration = DebounceConfiguration(
                press: Self.strategy(kind: pressKind, windowMs: windowMs),
                release: Self.strategy(kind: releaseKind, windowMs: windowMs),
                activeLevel: activeHigh ? .activeHigh : .activeLow)
            let run = try Self.run(seed: seed, profile: Self.boundedProfile, presses: 12, configuration: configuration)
            #expect(run.stop == .endOfInput)
            #expect(run.events.count == 2 * run.cycles.count)
            for (index, cycle) in run.cycles.enumerated() where run.events.count == 2 * run.cycles.count {
                let press = run.events[2 * index], release = run.events[2 * index + 1]
                #expect(press.kind == .press && release.kind == .release)
                for (event, transition) in [(press, cycle.press), (release, cycle.release)] {
                    switch configuration.strategy(leaving: !transition.pressed) {
                    case .defer(let windowNs):
                        // Settled only W after the burst: the onset is the contact's first edge, to the nanosecond.
                        #expect(event.onsetNs == transition.firstEdgeNs)
                        #expect(event.timeNs == transition.lastEdgeNs + windowNs)
                    case .eager(_, let glitchNs) where glitchNs == 0:
                        #expect(event.onsetNs == transition.firstEdgeNs)
                        #expect(event.timeNs == transition.firstEdgeNs)
                    case .eager(_, let glitchNs):
                        // A gap in the bounce longer than G settles the debouncer, so the onset is the first
                        // edge after the last such gap; the decision is G after a pulse that held.
                        #expect(event.onsetNs >= transition.firstEdgeNs && event.onsetNs <= transition.lastEdgeNs)
                        #expect(event.timeNs >= event.onsetNs + glitchNs && event.timeNs <= transition.lastEdgeNs + glitchNs)
                    }
                }
            }
        }
    }

    @Test func emiSpikesNeverMakeAPhantomPress() async {
        var noisy = Self.boundedProfile
        noisy.spikesPerSecond = 20
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 0...1), Gen.int64(in: 7...40)) { seed, kind, windowMs in
            // Plain eager (no glitch window) reports any edge: that is its definition, so it is left out.
            let strategy = Self.strategy(kind: kind == 0 ? 0 : 2, windowMs: windowMs)
            let run = try Self.run(seed: seed, profile: noisy, presses: 8, configuration: .init(both: strategy))
            // Every press is decided while the button is physically pressed. (Its onset may be a spike
            // just before the press: the earliest edge since the debouncer last settled.)
            for press in run.events where press.kind == .press {
                let inside = run.cycles.contains {
                    press.timeNs >= $0.press.firstEdgeNs && press.timeNs <= $0.release.firstEdgeNs + windowMs * 1_000_000
                }
                #expect(inside, "phantom press \(press)")
            }
            if case .eager = strategy {
                // A spike shorter than G cannot restart anything: no press is missed either.
                #expect(run.events.count == 2 * run.cycles.count)
            }
            // (defer(W) needs W of quiet after the bounce: under a storm of spikes a short press can
            // be missed, by definition. The README says so.)
        }
    }

    @Test func deferReportsOnlyLevelsThatHeldForTheWholeWindow() async {
        var wild = BounceProfile.noisy
        wild.holdNs = 1_000_000...30_000_000
        wild.pauseNs = 1_000_000...30_000_000
        await propertyCheck(count: 1500, input: Gen.uint64(), Gen.int64(in: 1...20)) { seed, windowMs in
            let windowNs = windowMs * 1_000_000
            let run = try Self.run(seed: seed, profile: wild, presses: 10, configuration: .init(both: .defer(windowNs: windowNs)))
            for event in run.events {
                // The last edge at or before the decision is exactly W before it, and moved the line to the reported level.
                let last = run.delivered.last { $0.timeNs <= event.timeNs }
                #expect(last?.timeNs == event.timeNs - windowNs)
                #expect(last.map { ActiveLevel.activeLow.isPressed($0.level) } == (event.kind == .press))
            }
        }
    }

    @Test func eventsAlternateOnsetsPrecedeDecisionsAndTheStateConvergesEvenWhenEdgesAreLost() async {
        var wild = BounceProfile.noisy
        wild.holdNs = 1_000_000...30_000_000
        wild.pauseNs = 1_000_000...30_000_000
        await propertyCheck(
            count: 1500,
            input: Gen.uint64(), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int64(in: 0...20), Gen.double(in: 0...0.5)
        ) { seed, pressKind, releaseKind, windowMs, drop in
            let configuration = DebounceConfiguration(
                press: Self.strategy(kind: pressKind, windowMs: windowMs),
                release: Self.strategy(kind: releaseKind, windowMs: windowMs))
            let run = try Self.run(seed: seed, profile: wild, presses: 10, configuration: configuration, drop: drop)
            for (index, event) in run.events.enumerated() {
                #expect(event.kind == (index.isMultiple(of: 2) ? .press : .release))
                #expect(event.onsetNs <= event.timeNs)
            }
            // However many edges were lost, once nothing more can be reported (a decision that could
            // only settle is not waited for) the reported state is the line's real level.
            #expect(run.debouncer.nextEventDeadlineNs == nil)
            #expect(run.debouncer.isPressed == configuration.activeLevel.isPressed(run.finalTrueLevel))
        }
    }
}
