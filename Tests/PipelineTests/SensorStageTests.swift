import DebounceCore
import EventLoop
import Pipeline
import Simulation
import Testing

/// Contacts and counters as the stage after a line's debouncer, through the event loop and the
/// pipeline, against what the simulated contact really did.
@Suite struct SensorStageTests {
    static let ms: Int64 = 1_000_000

    /// The pulses a meter really gave: its cycles' presses.
    static func pulses(seed: UInt64, count: Int) -> [PhysicalTransition] {
        var meter = BouncyButton(profile: .meterPulse, seed: seed, presses: count)
        var presses: [PhysicalTransition] = []
        while let cycle = meter.nextCycle() { presses.append(cycle.press) }
        return presses
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func everyMeterPulseIsCountedOnceFromTheStartingTotal(seed: UInt64) throws {
        let truth = Self.pulses(seed: seed, count: 200)
        let meter = BouncyButton(profile: .meterPulse, seed: seed, presses: 200)
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 10 * Self.ms)), role: .counter(initialTotal: 1_000))
        let run = try VirtualRun.play(SimulatedLines(buttons: [meter]), plans: [plan])
        #expect(run.counts.map(\.pulse.total) == Array(1_001...1_200))
        #expect(run.events.isEmpty, "a counter reports counts, not presses")
        for (counted, pulse) in zip(run.counts.map(\.pulse), truth) {
            #expect(counted.onsetNs == pulse.firstEdgeNs)
        }
        #expect(run.loop.pipeline.pulseCounter(line: 0)?.total == 1_200)
    }

    /// Random bounce on a door's reed contact, with delays: the reported states alternate, start from the
    /// state read at the start, and each lasted its delay (onset to the next change's onset).
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aDoorsStatesAlternateAndEachLastedItsDelay(seed: UInt64) throws {
        let door = BouncyButton(profile: .reedContact, seed: seed, activeLevel: .activeHigh, presses: 40)
        let contact = ContactConfiguration(onDelayNs: 2_000 * Self.ms, offDelayNs: 500 * Self.ms)
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 50 * Self.ms), activeLevel: .activeHigh), role: .contact(contact))
        let run = try VirtualRun.play(SimulatedLines(buttons: [door]), plans: [plan])
        let changes = run.contacts.map(\.change)
        #expect(!changes.isEmpty)
        #expect(run.events.isEmpty, "a contact reports states, not presses")
        for (index, change) in changes.enumerated() {
            #expect(change.isOn == index.isMultiple(of: 2), "on, off, on...: the door starts closed")
            #expect(change.timeNs - change.onsetNs >= (change.isOn ? contact.onDelayNs : contact.offDelayNs))
            if index > 0 {
                #expect(change.previousDurationNs == change.onsetNs - changes[index - 1].onsetNs)
                #expect(change.previousDurationNs >= (change.isOn ? contact.offDelayNs : contact.onDelayNs))
            }
        }
        #expect(changes.count.isMultiple(of: 2), "the door is closed at the end")
        // Openings of 1 to 6 s with on_delay 2 s: some are too short and never reported.
        #expect(run.loop.pipeline.contactFilter(line: 0)?.suppressedChanges ?? 0 > 0)
    }

    /// A contact, a counter and a button on one loop: each line's outputs are its own kind.
    @Test func aContactACounterAndAButtonSideBySide() throws {
        let scripts: [[Edge]] = [
            [Edge(level: .low, timeNs: 100 * Self.ms), Edge(level: .high, timeNs: 300 * Self.ms)],
            [Edge(level: .high, timeNs: 100 * Self.ms), Edge(level: .low, timeNs: 900 * Self.ms)],
            [Edge(level: .low, timeNs: 100 * Self.ms), Edge(level: .high, timeNs: 150 * Self.ms), Edge(level: .low, timeNs: 400 * Self.ms)],
        ]
        let lines = SimulatedLines(initialLevels: [.high, .low, .high], scripts: scripts.map { $0.makeIterator() })
        let defer5 = DebounceConfiguration(both: .defer(windowNs: 5 * Self.ms))
        let run = try VirtualRun.play(
            lines,
            plans: [
                LinePlan(debounce: defer5),
                LinePlan(
                    debounce: DebounceConfiguration(both: .defer(windowNs: 5 * Self.ms), activeLevel: .activeHigh),
                    role: .contact(ContactConfiguration(onDelayNs: 200 * Self.ms))),
                LinePlan(debounce: defer5, role: .counter(initialTotal: 7)),
            ])
        #expect(run.events.map(\.line) == [0, 0])
        #expect(run.events.last?.event.heldNs == 200 * Self.ms)
        #expect(run.contacts.map(\.line) == [1, 1])
        #expect(run.contacts.map(\.change) == [
            ContactEvent(isOn: true, timeNs: 300 * Self.ms, onsetNs: 100 * Self.ms),
            ContactEvent(isOn: false, timeNs: 905 * Self.ms, onsetNs: 900 * Self.ms, previousDurationNs: 800 * Self.ms),
        ])
        #expect(run.counts.map(\.pulse.total) == [8, 9])
        #expect(run.counts.last?.pulse.intervalNs == 300 * Self.ms)
    }
}
