import DebounceCore
import Testing

@Suite struct StrategySyntaxTests {
    @Test(arguments: [
        ("5ms", 5_000_000), ("500us", 500_000), ("500µs", 500_000), ("1s", 1_000_000_000),
        ("250ns", 250), ("1.5ms", 1_500_000), ("0", 0), ("0.0", 0), (".5ms", 500_000),
        ("0.000001ms", 1), ("1h", 3_600_000_000_000), ("0.5h", 1_800_000_000_000), ("1min", 60_000_000_000),
        ("1.5min", 90_000_000_000), ("60min", 3_600_000_000_000),
    ] as [(String, Int64)])
    func durations(text: String, ns: Int64) throws {
        #expect(try DurationSyntax.parseNs(text) == ns)
    }

    @Test(arguments: ["", "ms", "5 ms", "5m", "-5ms", "1.2.3ms", "5msx", "1e3", ".", "0.5ns", "2h", "3601s", "61min", "1.01h", "1m", "1H", "1hr", "1 h", "1mins"])
    func badDurations(text: String) {
        #expect(throws: DebounceSyntaxError.self) { try DurationSyntax.parseNs(text) }
    }

    /// A number with no unit is refused with the spellings to write (only zero, the same in every unit,
    /// needs none), in a strategy too.
    @Test(arguments: ["2", "10", "1.5", ".5", "3600000000"])
    func aBareNumberNeedsAUnit(text: String) {
        #expect(throws: DebounceSyntaxError.durationNeedsUnit(text)) { try DurationSyntax.parseNs(text) }
        #expect(throws: DebounceSyntaxError.durationNeedsUnit(text)) { try DebounceStrategy(parsing: "defer:\(text)") }
        #expect(throws: DebounceSyntaxError.durationNeedsUnit(text)) { try DebounceStrategy(parsing: "eager:5ms,glitch:\(text)") }
        #expect(DebounceSyntaxError.durationNeedsUnit(text).description == "a duration needs a unit: write \(text)ms (or \(text)s, \(text)us)")
    }

    @Test(arguments: [
        ("defer:5ms", DebounceStrategy.defer(windowNs: 5_000_000)),
        ("eager:30ms", .eager(lockoutNs: 30_000_000)),
        ("eager:30ms,glitch:100us", .eager(lockoutNs: 30_000_000, glitchNs: 100_000)),
    ])
    func strategiesRoundTrip(text: String, strategy: DebounceStrategy) throws {
        #expect(try DebounceStrategy(parsing: text) == strategy)
        #expect(strategy.description == text)
    }

    @Test(arguments: ["defer", "defer:", "lazy:5ms", "defer:5ms,glitch:1ms", "eager:5ms,glitch", "eager:5ms,spike:1ms", "eager:5ms,glitch:1ms,x"])
    func badStrategies(text: String) {
        #expect(throws: DebounceSyntaxError.self) { try DebounceStrategy(parsing: text) }
    }

    @Test func errorMessagesSayWhatIsAccepted() {
        #expect(DebounceSyntaxError.badStrategy("x").description.contains("defer:DURATION"))
        #expect(DebounceSyntaxError.badDuration("x").description.contains("500us"))
        #expect(DebounceSyntaxError.badDuration("x").description.contains("(h, min, s, ms, us, ns)"))
        #expect(DebounceSyntaxError.badDuration("-1s").description.contains("durations cannot be negative"))
        #expect(DebounceSyntaxError.badStrategy("-1ms").description.contains("durations cannot be negative"))
        #expect(!DebounceSyntaxError.badDuration("x").description.contains("negative"))
    }
}

@Suite struct DurationFormatTests {
    @Test(arguments: [
        (5_000_000 as Int64, "5ms"), (1_500_000, "1.5ms"), (178_562, "178.562us"), (250, "250ns"), (0, "0ms"),
        (1_043_250, "1043.25us"), (2_000_000_000, "2s"), (1_000_500, "1000.5us"), (999, "999ns"), (1_250_000_000, "1.25s"),
        (3_600_000_000_000, "1h"), (60_000_000_000, "1min"), (1_800_000_000_000, "30min"), (90_000_000_000, "90s"), (59_000_000_000, "59s"),
    ])
    func formatsExactlyAndReadsBack(ns: Int64, text: String) throws {
        #expect(DurationSyntax.format(ns) == text)
        #expect(try DurationSyntax.parseNs(DurationSyntax.format(ns)) == ns)
    }
}

@Suite struct DurationApproximationTests {
    /// Three significant digits, rounded the way asked: up for a smallest window (never shows less),
    /// down for a bound to stay under (never shows more), nearest for a measurement.
    @Test(arguments: [
        (1_043_250 as Int64, "1.04ms", "1.05ms", "1.04ms"), (178_562, "179us", "179us", "178us"),
        (48_956_750, "49ms", "49ms", "48.9ms"), (999_600, "1ms", "1ms", "999us"), (1_000_000, "1ms", "1ms", "1ms"),
        (1_005, "1.01us", "1.01us", "1us"), (250, "250ns", "250ns", "250ns"), (0, "0ns", "0ns", "0ns"), (-5, "0ns", "0ns", "0ns"),
        (5_669_496_877, "5.67s", "5.67s", "5.66s"), (1_234_567_000_000, "1235s", "1235s", "1234s"),
    ])
    func roundsAsAsked(ns: Int64, nearest: String, up: String, down: String) {
        #expect(DurationSyntax.approximate(ns) == nearest)
        #expect(DurationSyntax.approximate(ns, rounding: .up) == up)
        #expect(DurationSyntax.approximate(ns, rounding: .down) == down)
    }

    /// `.exact` shows a setting as given: in three digits when they hold it, otherwise every digit.
    @Test(arguments: [
        (20_000_000 as Int64, "20ms"), (1_500_000, "1.5ms"), (1_234_567, "1234.567us"), (178_562, "178.562us"), (999, "999ns"),
        (3_600_000_000_000, "3600s"),
    ])
    func exactShowsEveryDigitWhenThreeDoNot(ns: Int64, text: String) throws {
        #expect(DurationSyntax.approximate(ns, rounding: .exact) == text)
        #expect(try DurationSyntax.parseNs(text) == ns)
    }

    /// What is shown reads back as `rounded` says: at or above `ns` rounded up, at or below rounded
    /// down, and within a step of three significant digits.
    @Test func roundedValuesReadBackOnTheirSide() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let ns = Int64.random(in: 0...(Int64(1) << Int.random(in: 1...41, using: &random)), using: &random)
            let up = try DurationSyntax.parseNs(DurationSyntax.approximate(ns, rounding: .up))
            let down = try DurationSyntax.parseNs(DurationSyntax.approximate(ns, rounding: .down))
            let nearest = try DurationSyntax.parseNs(DurationSyntax.approximate(ns))
            #expect(up == DurationSyntax.rounded(ns, .up) && down == DurationSyntax.rounded(ns, .down), "\(ns)")
            #expect(down <= ns && ns <= up && up - down <= max(1, ns / 100), "\(ns): \(down)...\(up)")
            #expect(nearest == up || nearest == down, "\(ns)")
        }
    }
}
