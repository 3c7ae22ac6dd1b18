import DebounceCore
import Testing

/// Codes from key presses: end, clear and back keys, lengths, allowed keys and the lazy timeout.
@Suite struct CodeCollectorTests {
    static let secondNs: Int64 = 1_000_000_000

    /// Presses each key of `keys` one second apart from `startNs`; returns the codes completed.
    static func type(_ keys: String, into collector: inout CodeCollector, startNs: Int64 = 0, gapNs: Int64 = secondNs) -> [EnteredCode] {
        keys.enumerated().compactMap { index, key in collector.press(key, atNs: startNs + Int64(index) * gapNs) }
    }

    @Test func anEndKeyCompletesTheCodeAtItsPress() {
        var collector = CodeCollector(CodeConfiguration())
        #expect(Self.type("1234#", into: &collector) == [EnteredCode(code: "1234", timeNs: 4 * Self.secondNs)])
        #expect(collector.length == 0)
        // The next code starts from nothing.
        #expect(Self.type("56#", into: &collector, startNs: 5 * Self.secondNs) == [EnteredCode(code: "56", timeNs: 7 * Self.secondNs)])
    }

    @Test func aClearKeyStartsOver() {
        var collector = CodeCollector(CodeConfiguration())
        #expect(Self.type("12*34#", into: &collector) == [EnteredCode(code: "34", timeNs: 5 * Self.secondNs)])
        _ = Self.type("99*", into: &collector, startNs: 6 * Self.secondNs)
        #expect(collector.length == 0)
    }

    @Test func aBackKeyDeletesTheLastKey() {
        var collector = CodeCollector(CodeConfiguration(backKeys: ["B"]))
        #expect(Self.type("12B3#", into: &collector).map(\.code) == ["13"])
        // Back with nothing collected deletes nothing.
        #expect(Self.type("BB7#", into: &collector, startNs: 10 * Self.secondNs).map(\.code) == ["7"])
    }

    @Test func tooShortACodeIsDroppedAtItsEndKey() {
        var collector = CodeCollector(CodeConfiguration(minLength: 4))
        #expect(Self.type("123#", into: &collector).isEmpty)
        #expect(collector.length == 0)
        #expect(Self.type("4#", into: &collector, startNs: 4 * Self.secondNs).isEmpty)
        #expect(Self.type("1234#", into: &collector, startNs: 6 * Self.secondNs).map(\.code) == ["1234"])
    }

    @Test func withEndKeysKeysPastTheMaximumAreIgnored() {
        var collector = CodeCollector(CodeConfiguration(maxLength: 4))
        #expect(Self.type("123456#", into: &collector).map(\.code) == ["1234"])
    }

    @Test func withNoEndKeysTheMaximumLengthCompletesTheCode() {
        var collector = CodeCollector(CodeConfiguration(maxLength: 3, endKeys: []))
        #expect(
            Self.type("123456#", into: &collector)
                == [EnteredCode(code: "123", timeNs: 2 * Self.secondNs), EnteredCode(code: "456", timeNs: 5 * Self.secondNs)])
        // With no end keys, `#` is an ordinary key.
        #expect(collector.length == 1)
    }

    @Test func keysNotAllowedAreIgnored() {
        var collector = CodeCollector(CodeConfiguration(allowedKeys: Array("0123456789")))
        #expect(Self.type("1A2B3#", into: &collector).map(\.code) == ["123"])
        // End and clear keys work though not in the allowed keys.
        #expect(Self.type("9*8#", into: &collector, startNs: 10 * Self.secondNs).map(\.code) == ["8"])
    }

    @Test func everyOtherKeyIsAllowedByDefault() {
        var collector = CodeCollector(CodeConfiguration())
        #expect(Self.type("A1D#", into: &collector).map(\.code) == ["A1D"])
    }

    @Test func aPauseLongerThanTheTimeoutDropsWhatWasCollected() {
        let timeoutNs = 5 * Self.secondNs
        var collector = CodeCollector(CodeConfiguration(timeoutNs: timeoutNs))
        _ = Self.type("12", into: &collector)
        // Exactly the timeout after the previous press: still collecting.
        #expect(collector.press("3", atNs: Self.secondNs + timeoutNs) == nil)
        #expect(collector.length == 3)
        // More than the timeout: "123" dropped before the "4" counts.
        let lateNs = Self.secondNs + 2 * timeoutNs + 1
        #expect(collector.press("4", atNs: lateNs) == nil)
        #expect(collector.length == 1)
        #expect(collector.press("#", atNs: lateNs + Self.secondNs) == EnteredCode(code: "4", timeNs: lateNs + Self.secondNs))
        // The end key late: the code is dropped, and nothing completes.
        _ = Self.type("56", into: &collector, startNs: 100 * Self.secondNs)
        #expect(collector.press("#", atNs: 200 * Self.secondNs) == nil)
    }

    @Test func withNoTimeoutPausesDropNothing() {
        var collector = CodeCollector(CodeConfiguration(timeoutNs: nil))
        #expect(Self.type("12#", into: &collector, gapNs: 3_600 * Self.secondNs).map(\.code) == ["12"])
    }
}
