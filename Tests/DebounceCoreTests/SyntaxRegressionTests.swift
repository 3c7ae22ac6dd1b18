import DebounceCore
import Testing

/// Hostile input for the duration and strategy syntax (scripts/fuzz runs libFuzzer on both, against a
/// plain reading of the duration syntax and a round trip through `description`).
@Suite struct SyntaxRegressionTests {
    /// Before, the window was parsed before the strategy's name was checked, so `lazy:soon` was reported
    /// as "'soon' is not a duration" instead of an unknown strategy.
    @Test(arguments: ["lazy:soon", "eagr:x", "defer:x,glitch:1ms", "eager:x,spike:1ms", "eager:x,glitch:1ms,y", "Defer:5ms"])
    func theStrategyIsCheckedBeforeItsDurations(text: String) {
        #expect(throws: DebounceSyntaxError.badStrategy(text)) { try DebounceStrategy(parsing: text) }
    }

    @Test(arguments: [
        ("defer:soon", DebounceSyntaxError.badDuration("soon")), ("eager:5ms,glitch:2h", .durationTooLong("2h")), ("eager:5ms,glitch:2d", .badDuration("2d")),
        ("eager:3601s", .durationTooLong("3601s")), ("eager:1ms,glitch:0.1ns", .durationTooPrecise("0.1ns")),
    ] as [(String, DebounceSyntaxError)])
    func aKnownStrategyWithABadDurationNamesTheDuration(text: String, error: DebounceSyntaxError) {
        #expect(throws: error) { try DebounceStrategy(parsing: text) }
    }

    @Test(arguments: [
        (String(repeating: "0", count: 10_000) + "1ms", 1_000_000),
        ("1." + String(repeating: "0", count: 10_000) + "s", 1_000_000_000), ("3600.000000000s", 3_600_000_000_000),
        ("0.000001ms", 1), ("0us", 0),
    ] as [(String, Int64)])
    func longAndExactDurations(text: String, ns: Int64) throws {
        #expect(try DurationSyntax.parseNs(text) == ns)
    }

    @Test(arguments: [
        ("99999999999999999999999999ms", DebounceSyntaxError.durationTooLong("99999999999999999999999999ms")),
        ("3600.000000001s", .durationTooLong("3600.000000001s")),
        ("1." + String(repeating: "0", count: 100) + "1ns", .durationTooPrecise("1." + String(repeating: "0", count: 100) + "1ns")),
        ("5\0ms", .badDuration("5\0ms")), ("\05ms", .badDuration("\05ms")), ("5\u{301}ms", .badDuration("5\u{301}ms")),
        ("٥ms", .badDuration("٥ms")), ("5\u{3BC}s", .badDuration("5\u{3BC}s")), ("5ms\r\n", .badDuration("5ms\r\n")),
        ("-0ms", .badDuration("-0ms")), ("+5ms", .badDuration("+5ms")), (" 5ms", .badDuration(" 5ms")),
    ] as [(String, DebounceSyntaxError)])
    func hostileDurationsAreClearErrors(text: String, error: DebounceSyntaxError) {
        #expect(throws: error) { try DurationSyntax.parseNs(text) }
    }
}
