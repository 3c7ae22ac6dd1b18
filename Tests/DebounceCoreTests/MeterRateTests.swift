import DebounceCore
import Testing

/// A meter's rate from the interval between its last two pulses, and its fall with no pulse, in
/// virtual time: pulses are given by their onsets, and time passes only through `advance(toNs:)`.
@Suite struct MeterRateTests {
    static let s: Int64 = 1_000_000_000
    /// A meter of 1000 imp/kWh in W (3600 J per pulse), its fall reported every 5 s, 0 after 5 min.
    static let energy = MeterRateConfiguration(perPulsePerSecond: 3600, timeoutNs: 300 * s, reportIntervalNs: 5 * s)

    static func press(_ onsetNs: Int64, decidedAfterNs: Int64 = 10_000_000) -> ButtonEvent {
        ButtonEvent(kind: .press, timeNs: onsetNs + decidedAfterNs, onsetNs: onsetNs)
    }

    /// Issue 33's formula for a meter of `impPerKWh`: 3,600,000 / (imp/kWh × interval in s) W.
    static func watts(impPerKWh: Double, intervalNs: Int64) -> Double {
        3_600_000 / (impPerKWh * Double(intervalNs) / 1e9)
    }

    @Test func aSteadyMeterGivesItsPowerExactlyToTheNanosecondOfItsInterval() {
        // 1 kW at 1000 imp/kWh is a pulse every 3.6 s.
        var counter = PulseCounter(total: 0, rate: Self.energy)
        #expect(counter.receive(Self.press(7 * Self.s))?.rate == 0, "one pulse has no interval")
        #expect(counter.nextDeadlineNs == nil, "no rate, nothing to fall: no wakeup")
        for index in 1...10 {
            let pulse = counter.receive(Self.press(7 * Self.s + Int64(index) * 3_600_000_000))
            #expect(pulse?.rate == 1000)
            #expect(pulse?.intervalNs == 3_600_000_000)
        }
        // One nanosecond longer is a different power, the formula's to the last bit or so.
        let onsetNs = 7 * Self.s + 10 * 3_600_000_000
        let pulse = counter.receive(Self.press(onsetNs + 3_600_000_001))
        let expected = Self.watts(impPerKWh: 1000, intervalNs: 3_600_000_001)
        #expect(pulse?.rate == 3600 * 1e9 / 3_600_000_001)
        #expect(pulse.map { abs($0.rate - expected) <= expected * 1e-15 } == true)
        #expect(pulse.map { $0.rate < 1000 } == true)
        // Another meter constant, and pulses per minute with none.
        var fast = PulseCounter(rate: MeterRateConfiguration(perPulsePerSecond: 3_600_000.0 / 10_000))
        _ = fast.receive(Self.press(0))
        #expect(fast.receive(Self.press(360_000_000))?.rate == 1000)  // 10000 imp/kWh at 1 kW: every 0.36 s
        var plain = PulseCounter()
        _ = plain.receive(Self.press(0))
        #expect(plain.receive(Self.press(2 * Self.s))?.rate == 30)
    }

    @Test func aStepInLoadShowsAtTheNextPulse() {
        var counter = PulseCounter(rate: Self.energy)
        var onsetNs: Int64 = 0
        _ = counter.receive(Self.press(onsetNs))
        var rates: [Double] = []
        // 1 kW for four pulses, then 2 kW (every 1.8 s), then 500 W (every 7.2 s).
        for intervalNs in [3_600_000_000, 3_600_000_000, 3_600_000_000, 1_800_000_000, 1_800_000_000, 7_200_000_000] as [Int64] {
            onsetNs += intervalNs
            rates.append(counter.receive(Self.press(onsetNs))?.rate ?? -1)
        }
        #expect(rates == [1000, 1000, 1000, 2000, 2000, 500])
    }

    @Test func withNoPulseTheRateFallsAtItsDeadlinesAndIsZeroAfterTheTimeout() {
        var counter = PulseCounter(rate: Self.energy)
        _ = counter.receive(Self.press(0))
        let lastNs: Int64 = 3_600_000_000
        #expect(counter.receive(Self.press(lastNs))?.rate == 1000)
        // Until the interval has passed, and one report interval more, nothing falls.
        let firstFallNs = lastNs + 3_600_000_000 + 5 * Self.s
        #expect(counter.nextDeadlineNs == firstFallNs)
        #expect(counter.advance(toNs: firstFallNs - 1) == nil)
        // Then, every 5 s, one pulse over the time since the last onset: 3600 J / 8.6 s...
        var falls: [CounterReading] = []
        while let dueNs = counter.nextDeadlineNs {
            if let fall = counter.advance(toNs: dueNs) { falls.append(fall) }
        }
        #expect(falls.first == CounterReading(rate: 3600 * 1e9 / 8_600_000_000, ratePerMinute: 60 * 1e9 / 8_600_000_000, timeNs: firstFallNs, total: 2))
        #expect(falls.dropLast().map(\.timeNs) == (0..<falls.count - 1).map { firstFallNs + Int64($0) * 5 * Self.s })
        #expect(falls.dropLast().allSatisfy { $0.rate == 3600 * 1e9 / Double($0.timeNs - lastNs) })
        #expect(zip(falls, falls.dropFirst()).allSatisfy { $0.rate > $1.rate }, "it only falls")
        // ... and 0 exactly at the timeout, after which there is no deadline: no wakeup while idle.
        #expect(falls.last == CounterReading(rate: 0, ratePerMinute: 0, timeNs: lastNs + 300 * Self.s, total: 2))
        #expect(falls.count == 60)  // 8.6 s, 13.6 s ... 298.6 s after the onset (59), then the timeout
        #expect(counter.nextDeadlineNs == nil && counter.meterRate.rate == 0)
    }

    @Test func aLateWakeupReportsOnlyTheLatestFallDue() {
        var counter = PulseCounter(rate: Self.energy)
        _ = counter.receive(Self.press(0))
        _ = counter.receive(Self.press(3_600_000_000))
        // Falls due at 12.2 s, 17.2 s ... after the onset at 3.6 s: at 100 s the latest is 98.2 s.
        let fall = counter.advance(toNs: 100 * Self.s)
        #expect(fall?.timeNs == 3_600_000_000 + 3_600_000_000 + 5 * Self.s + 17 * 5 * Self.s)
        #expect(fall?.rate == 3600 * 1e9 / Double(3_600_000_000 + 5 * Self.s + 17 * 5 * Self.s))
        #expect(counter.nextDeadlineNs == (fall?.timeNs ?? 0) + 5 * Self.s)
        #expect(counter.advance(toNs: 100 * Self.s) == nil, "nothing twice")
        // Past the timeout at once: 0, at the timeout.
        #expect(counter.advance(toNs: 10_000 * Self.s) == CounterReading(rate: 0, ratePerMinute: 0, timeNs: 303_600_000_000, total: 2))
        #expect(counter.nextDeadlineNs == nil)
    }

    @Test func aPulseAfterTheTimeoutStartsAgainAtZero() {
        var counter = PulseCounter(rate: Self.energy)
        _ = counter.receive(Self.press(0))
        #expect(counter.receive(Self.press(300 * Self.s))?.rate == 3600 / 300.0, "an interval of exactly the timeout still counts")
        #expect(counter.nextDeadlineNs == 600 * Self.s, "its fall is the timeout itself")
        #expect(counter.receive(Self.press(600 * Self.s + 1))?.rate == 0, "the meter had stopped")
        #expect(counter.nextDeadlineNs == nil)
        #expect(counter.receive(Self.press(603_600_000_001))?.rate == 1000)
    }

    @Test func aPulseBeforeTheFallReplacesIt() {
        var counter = PulseCounter(rate: Self.energy)
        _ = counter.receive(Self.press(0))
        _ = counter.receive(Self.press(3_600_000_000))
        // The load rises: the next pulse comes after 1.8 s, long before any fall was due.
        #expect(counter.receive(Self.press(5_400_000_000))?.rate == 2000)
        #expect(counter.advance(toNs: 12_199_999_999) == nil)
        #expect(counter.nextDeadlineNs == 5_400_000_000 + 1_800_000_000 + 5 * Self.s)
    }
}
