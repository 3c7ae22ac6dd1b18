import DebounceCore
import Testing

/// Drives `decoder` through `detents` full cycles (+1 clockwise, -1 counter-clockwise), one every
/// `periodNs` from `startNs`, its four transitions evenly spaced, each detent completing at
/// `startNs + k * periodNs`; returns the events.
private func turn(_ decoder: inout QuadratureDecoder, _ detents: [Int], periodNs: Int64, startNs: Int64 = 0) -> [EncoderEvent] {
    // The clockwise cycle from 11; counter-clockwise runs it backwards.
    let clockwise: [(Level, Level)] = [(.low, .high), (.low, .low), (.high, .low), (.high, .high)]
    let counterClockwise: [(Level, Level)] = [(.high, .low), (.low, .low), (.low, .high), (.high, .high)]
    var events: [EncoderEvent] = []
    for (index, direction) in detents.enumerated() {
        let endNs = startNs + Int64(index + 1) * periodNs
        for (step, levels) in (direction > 0 ? clockwise : counterClockwise).enumerated() {
            let timeNs = endNs - Int64(3 - step) * (periodNs / 4)
            events += decoder.receive(a: levels.0, b: levels.1, atNs: timeNs)
        }
    }
    return events
}

@Suite struct EncoderPositionTests {
    @Test func thePositionSumsTheDetents() {
        var decoder = QuadratureDecoder(position: 10)
        let events = turn(&decoder, [1, 1, -1, 1, 1], periodNs: 50_000_000)
        #expect(events.map(\.position) == [11, 12, 11, 12, 13])
        #expect(decoder.position == 13)
        #expect(decoder.statistics.clockwise == 4 && decoder.statistics.counterClockwise == 1)
    }

    @Test func aRangeClampsThePosition() {
        var decoder = QuadratureDecoder(configuration: EncoderConfiguration(range: 0...2), position: 7)
        #expect(decoder.position == 2)
        let events = turn(&decoder, [1, -1, -1, -1, -1], periodNs: 50_000_000)
        #expect(events.map(\.position) == [2, 1, 0, 0, 0])
        // The detents are still reported, with their direction.
        #expect(events.map(\.direction) == [.clockwise] + Array(repeating: .counterClockwise, count: 4))
    }

    @Test func aWrappingRangeGoesRound() {
        var decoder = QuadratureDecoder(configuration: EncoderConfiguration(range: 0...2, wraps: true), position: 1)
        let events = turn(&decoder, [1, 1, 1, -1, -1], periodNs: 50_000_000)
        #expect(events.map(\.position) == [2, 0, 1, 0, 2])
    }

    @Test func movingPastTheEndsOfHugeRangesNeitherTrapsNorLeavesTheRange() {
        let all = EncoderConfiguration(range: Int.min...Int.max, wraps: true)
        #expect(all.moved(.max, by: 1) == .min)
        #expect(all.moved(.min, by: -3) == .max - 2)
        let wide = EncoderConfiguration(range: -5...Int.max, wraps: true)
        #expect(wide.moved(.max - 1, by: 4) == -3)
        #expect(wide.moved(-5, by: -1) == .max)
        let small = EncoderConfiguration(range: 0...2, wraps: true)
        #expect(small.moved(1, by: 7) == 2)
        #expect(small.moved(1, by: -7) == 0)
        let unbounded = EncoderConfiguration()
        #expect(unbounded.moved(.max - 1, by: 4) == .max)
        #expect(unbounded.moved(.min + 1, by: -4) == .min)
    }

    @Test func velocityIsDetentsPerSecondOverTheWindow() {
        var decoder = QuadratureDecoder()
        // Two slow detents (5 per second), then six at 100 per second.
        var events = turn(&decoder, [1, 1], periodNs: 200_000_000)
        events += turn(&decoder, Array(repeating: 1, count: 6), periodNs: 10_000_000, startNs: 400_000_000)
        #expect(events[0].velocity == 0)
        #expect(events[1].velocity == 5)
        // The first fast detent: one detent 10 ms after the previous one.
        #expect(events[2].velocity == 100)
        #expect(events[3...].allSatisfy { $0.velocity == 100 })
    }

    @Test func aReversalRestartsTheVelocityWindow() {
        var decoder = QuadratureDecoder()
        // Three clockwise at 100 per second, then back at 20 per second: the first detent back is
        // measured from the last one forward alone, not from the three (which would give 43).
        var events = turn(&decoder, [1, 1, 1], periodNs: 10_000_000)
        events += turn(&decoder, [-1, -1], periodNs: 50_000_000, startNs: 30_000_000)
        #expect(events.map(\.velocity) == [0, 100, 100, 20, 20])
        #expect(decoder.statistics.counterClockwise == 2)
    }

    @Test func aboveTheThresholdEachDetentCountsTheAccelerationFactor() {
        let configuration = EncoderConfiguration(acceleration: .init(thresholdPerSecond: 20, factor: 4))
        var decoder = QuadratureDecoder(configuration: configuration)
        var events = turn(&decoder, [1, 1], periodNs: 100_000_000)  // 10 per second
        events += turn(&decoder, [1, 1, 1], periodNs: 25_000_000, startNs: 200_000_000)  // 40 per second
        #expect(events.map(\.increment) == [1, 1, 4, 4, 4])
        #expect(events.map(\.position) == [1, 2, 6, 10, 14])
    }
}

@Suite struct EncoderResyncTests {
    @Test func resyncAfterLostEventsCountsNoDetentAndCountsAfreshFromTheNextDetentPosition() {
        var decoder = QuadratureDecoder()
        #expect(decoder.receive(a: .low, b: .high, atNs: 1_000).isEmpty)
        // Events were lost; the lines now read 00 (half a detent on, or half back).
        #expect(decoder.resync(a: .low, b: .low, atNs: 2_000).isEmpty)
        #expect(decoder.statistics.resyncCorrections == 1)
        // 10, 11: reaching the detent position counts nothing.
        #expect(decoder.receive(a: .high, b: .low, atNs: 3_000).isEmpty)
        #expect(decoder.receive(a: .high, b: .high, atNs: 4_000).isEmpty)
        // A full cycle from there is one detent.
        var events: [EncoderEvent] = []
        for (index, levels) in [(Level.low, Level.high), (.low, .low), (.high, .low), (.high, .high)].enumerated() {
            events += decoder.receive(a: levels.0, b: levels.1, atNs: 5_000 + Int64(index) * 1_000)
        }
        #expect(events.map(\.direction) == [.clockwise])
        #expect(events.first?.onsetNs == 5_000)
    }

    @Test func resyncAtADetentPositionCountsFromThere() {
        var decoder = QuadratureDecoder()
        _ = decoder.receive(a: .low, b: .high, atNs: 1_000)
        _ = decoder.receive(a: .low, b: .low, atNs: 2_000)
        // Lost: the knob went on to 11 (or back). Nothing is counted, and the next cycle back is a detent.
        #expect(decoder.resync(a: .high, b: .high, atNs: 3_000).isEmpty)
        var events: [EncoderEvent] = []
        for (index, levels) in [(Level.high, Level.low), (.low, .low), (.low, .high), (.high, .high)].enumerated() {
            events += decoder.receive(a: levels.0, b: levels.1, atNs: 4_000 + Int64(index) * 1_000)
        }
        #expect(events.map(\.direction) == [.counterClockwise])
        #expect(decoder.position == -1)
    }

    @Test func resyncAppliesTheGatheredObservationAndLosesAWaitingSkip() {
        var decoder = QuadratureDecoder()
        _ = decoder.receive(a: .low, b: .high, atNs: 1_000)
        _ = decoder.receive(a: .low, b: .low, atNs: 2_000)
        _ = decoder.receive(line: .a, level: .high, atNs: 3_000)
        _ = decoder.receive(line: .b, level: .high, atNs: 3_000)
        #expect(decoder.resync(a: .high, b: .high, atNs: 4_000).isEmpty)
        #expect(decoder.statistics.skips == 1 && decoder.statistics.lostSkips == 1)
        #expect(decoder.statistics.resyncCorrections == 0)
        #expect(decoder.nextDeadlineNs == nil)
    }

    @Test func duplicateAndLateChangesAreCountedAndHarmless() {
        var decoder = QuadratureDecoder()
        #expect(decoder.receive(line: .a, level: .high, atNs: 1_000).isEmpty)
        #expect(decoder.advance(toNs: 1_000).isEmpty)
        #expect(decoder.statistics.duplicateChanges == 1)
        #expect(decoder.receive(line: .a, level: .low, atNs: 5_000).isEmpty)
        #expect(decoder.receive(line: .b, level: .low, atNs: 4_000).isEmpty)  // late: applied at 5 µs
        #expect(decoder.statistics.clampedTimestamps == 1)
        #expect(decoder.advance(toNs: 5_000).isEmpty)
        #expect(decoder.statistics.skips == 1)
        #expect(decoder.levelA == .low && decoder.levelB == .low)
    }
}
