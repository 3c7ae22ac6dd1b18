import DebounceCore
import Testing

/// A selector switch's rules, drawn as timelines (notation: `SelectorMarble`; a settle time of 3 ticks
/// unless a test says otherwise).
@Suite struct SelectorMarbleTests {
    static let ms = SelectorMarble.tickNs

    static func configuration(_ code: SelectorCode, lines: Int, settleTicks: Int64 = 3, highestValue: Int? = nil) -> SelectorConfiguration {
        SelectorConfiguration(code: code, lineCount: lines, settleNs: settleTicks * ms, highestValue: highestValue)
    }

    @Test func aTurnBreakBeforeMakeIsOneSelectOnceTheNewPositionHeld() {
        // Position 1 to 2: line 0 opens at tick 3, line 1 closes at tick 5 (a gap shorter than the settle).
        let run = SelectorMarble.expect(
            ["___-------",
             "-----_____"],
            events: "        2", Self.configuration(.oneHot, lines: 2))
        #expect(run.events.map(\.kind) == [.select(position: 2, previous: 1)])
        #expect(run.events.first?.onsetNs == 5 * Self.ms)
        #expect(run.decoder.position == 2 && run.decoder.invalidReadings == 0 && run.decoder.unsettledReadings == 1)
    }

    @Test func bounceOnTheNewContactReportsOnceFromItsLastEdge() {
        let run = SelectorMarble.expect(
            ["__----------",
             "----_-__-___"],
            events: "            2", Self.configuration(.oneHot, lines: 2))
        #expect(run.events.first?.onsetNs == 9 * Self.ms)
    }

    @Test func aGapLongerThanTheSettleIsInvalidThenTheNewPosition() {
        let run = SelectorMarble.expect(
            ["__--------",
             "-------___"],
            events: "     !    2", Self.configuration(.oneHot, lines: 2))
        #expect(run.events.map(\.kind) == [.invalid(activeLines: 0), .select(position: 2, previous: 1)])
        #expect(run.decoder.invalidReadings == 1)
    }

    @Test func twoPositionsAtOnceAreInvalidAndTheReturnIsReportedAgain() {
        let run = SelectorMarble.expect(
            ["__________",
             "---____---"],
            events: "      !   1", Self.configuration(.oneHot, lines: 2))
        #expect(run.events.map(\.kind) == [.invalid(activeLines: 0b11), .select(position: 1, previous: 1)])
    }

    @Test func anInvalidReadingIsReportedOnceWhileItHolds() {
        // Both lines, then a flicker of line 1 that comes back before it held: one invalid report.
        let run = SelectorMarble.expect(
            ["______________",
             "---____-______"],
            events: "      !", Self.configuration(.oneHot, lines: 2))
        #expect(run.decoder.invalidReadings == 1 && run.decoder.isInvalid)
    }

    @Test func aTurnTakenBackBeforeItHeldReportsNothing() {
        let run = SelectorMarble.expect(
            ["__--______",
             "----------"],
            events: "", Self.configuration(.oneHot, lines: 2))
        #expect(run.decoder.unsettledReadings == 1 && run.decoder.position == 1)
    }

    @Test func aChangeAtTheInstantTheReadingWouldHoldStartsTheSettleAgain() {
        // Line 0 opens at tick 2 (the gap would hold at tick 5); line 1 closes at tick 5 itself.
        let run = SelectorMarble.expect(
            ["__--------",
             "-----_____"],
            events: "        2", Self.configuration(.oneHot, lines: 2))
        #expect(run.decoder.invalidReadings == 0)
    }

    @Test func aStartOnAPositionIsThatPositionWithoutAnEvent() {
        let run = SelectorMarble.expect(
            ["----------",
             "__________"],
            events: "", Self.configuration(.oneHot, lines: 2))
        #expect(run.decoder.position == 2 && run.decoder.nextDeadlineNs == nil)
    }

    @Test func aStartBetweenPositionsIsInvalidOnceTheSettleIsOver() {
        let run = SelectorMarble.expect(
            ["----------",
             "----------"],
            events: "   !", Self.configuration(.oneHot, lines: 2))
        #expect(run.decoder.position == nil && run.decoder.isInvalid)
    }

    @Test func aStartBetweenPositionsThatLandsIsTheFirstPositionWithNoPrevious() {
        let run = SelectorMarble.expect(
            ["--________",
             "----------"],
            events: "     1", Self.configuration(.oneHot, lines: 2))
        #expect(run.events.map(\.kind) == [.select(position: 1, previous: nil)])
    }

    @Test func grayCodeStepsOneLineAtATime() {
        // 0 (no line), 1 (line 0), 2 (lines 0 and 1: Gray 011).
        SelectorMarble.expect(
            ["--________",
             "-------___",
             "----------"],
            events: "     1    2", Self.configuration(.gray, lines: 3))
    }

    @Test func binaryLinesChangingOneAfterAnotherReportOnlyTheValueTheyEndAt() {
        // 1 (line 0) to 2 (line 1): line 0 opens a tick before line 1 closes; 0 is never reported.
        let run = SelectorMarble.expect(
            ["__--------",
             "---_______"],
            events: "      2", Self.configuration(.binary, lines: 2))
        #expect(run.events.map(\.kind) == [.select(position: 2, previous: 1)])
    }

    @Test func aBCDDigitAboveNineIsInvalid() {
        // 9 (lines 0 and 3); line 1 closes: 1011, no decimal digit.
        let run = SelectorMarble.expect(
            ["__________",
             "--________",
             "----------",
             "__________"],
            events: "     !", Self.configuration(.bcd, lines: 4))
        #expect(run.events.map(\.kind) == [.invalid(activeLines: 0b1011)])
    }

    @Test func aValueAboveTheHighestIsInvalid() {
        // A 10-position binary switch at 9 (1001); line 1 closes: 11.
        SelectorMarble.expect(
            ["__________",
             "--________",
             "----------",
             "__________"],
            events: "     !", Self.configuration(.binary, lines: 4, highestValue: 9))
    }

    @Test func positionsFromTenAreLetters() {
        // Twelve positions, one-hot: 11 to 12.
        let lines = (0..<10).map { _ in "----------" } + ["___-------", "-----_____"]
        SelectorMarble.expect(lines, events: "        C", Self.configuration(.oneHot, lines: 12))
    }
}
