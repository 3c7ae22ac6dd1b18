import DebounceCore
import Testing

/// The decoding rules, drawn as timelines (notation: `EncoderMarble`). Clockwise, A leads:
/// (A, B) 11 → 01 → 00 → 10 → 11, so A falls, B falls, A rises, B rises.
@Suite struct EncoderDecodingMarbleTests {
    @Test func aFullClockwiseCycleIsOneDetentCountedWhenItCompletes() {
        let run = EncoderMarble.expect(
            a: "--__----",
            b: "---__---",
            detents: "     >")
        #expect(run.events.map(\.position) == [1])
        #expect(run.events.first?.onsetNs == 2 * EncoderMarble.tickNs)
    }

    @Test func aFullCounterClockwiseCycleIsOneDetentTheOtherWay() {
        let run = EncoderMarble.expect(
            a: "---__---",
            b: "--__----",
            detents: "     <")
        #expect(run.events.map(\.position) == [-1])
    }

    @Test func reverseSwapsTheDirections() {
        EncoderMarble.expect(
            a: "--__----",
            b: "---__---",
            detents: "     <", EncoderConfiguration(reverse: true))
    }

    @Test func bounceOnAChangingLineNeverMakesOrLosesADetent() {
        // A bounces as it falls and as it rises; B bounces at the detent: counted once, at its first edge.
        let run = EncoderMarble.expect(
            a: "--_-____-_------",
            b: "------______-_--",
            detents: "            >")
        #expect(run.decoder.statistics.clockwise == 1 && run.decoder.statistics.counterClockwise == 0)
    }

    @Test func theOnsetIsTheLatestDepartureFromThePreviousDetent() {
        // A bounces on leaving the detent (ticks 2-4): the onset is its last edge.
        let run = EncoderMarble.expect(
            a: "--_-____--",
            b: "------___-",
            detents: "         >")
        #expect(run.events.first?.onsetNs == 4 * EncoderMarble.tickNs)
    }

    @Test func aJiggleCountsNothing() {
        EncoderMarble.expect(
            a: "--____----",
            b: "---__-----",
            detents: "")
        // Three quarters of the way and back.
        EncoderMarble.expect(
            a: "--__--__--",
            b: "---____---",
            detents: "")
    }

    @Test func aReversalInMidDetentIsFollowed() {
        // Half a detent clockwise, back, and on to the detent behind: one counter-clockwise detent.
        EncoderMarble.expect(
            a: "--___--__-",
            b: "---_--__--",
            detents: "         <")
        // Three quarters clockwise, then all the way back past the start: one counter-clockwise detent.
        EncoderMarble.expect(
            a: "--__-__--__--",
            b: "---___--__---",
            detents: "           <")
    }

    @Test func turnsAfterOneAnotherCountEachDetent() {
        EncoderMarble.expect(
            a: "--__----__----__--",
            b: "---__----__--__--",
            detents: "     >     >    <")
    }

    @Test func aDecoderStartingBetweenDetentsCountsFromTheFirstDetentItReaches() {
        // Starts at 00: reaching 11 is half a detent, not counted; the full cycle after it is.
        let run = EncoderMarble.expect(
            a: "__--__--",
            b: "___--__-",
            detents: "       >")
        #expect(run.events.first?.onsetNs == 4 * EncoderMarble.tickNs)
    }
}

/// Two steps and one step per detent.
@Suite struct EncoderStepsPerDetentMarbleTests {
    @Test func twoStepsPerDetentCountAt11And00() {
        EncoderMarble.expect(
            a: "--__----",
            b: "---__---",
            detents: "   > >", EncoderConfiguration(stepsPerDetent: .two))
    }

    @Test func twoStepsPerDetentBounceAtTheDetentCountsOnce() {
        EncoderMarble.expect(
            a: "--______",
            b: "---_-_-_",
            detents: "   >", EncoderConfiguration(stepsPerDetent: .two))
    }

    @Test func twoStepsPerDetentAJiggleCountsNothing() {
        EncoderMarble.expect(
            a: "--_-----",
            b: "--------",
            detents: "", EncoderConfiguration(stepsPerDetent: .two))
    }

    @Test func oneStepPerDetentCountsEveryTransition() {
        EncoderMarble.expect(
            a: "--__----",
            b: "---__---",
            detents: "  >>>>", EncoderConfiguration(stepsPerDetent: .one))
    }

    @Test func oneStepPerDetentBounceCountsOnce() {
        EncoderMarble.expect(
            a: "--_-_-__",
            b: "--------",
            detents: "  >", EncoderConfiguration(stepsPerDetent: .one))
    }

    @Test func oneStepPerDetentAReversalMovingOnBeforeItSettlesCountsBothTransitions() {
        // 01 at tick 2 (a detent), back to 11 at tick 3 (bounce, for all the decoder knows yet), on to
        // 10 at tick 4: both transitions count, the first stamped with its own time.
        EncoderMarble.expect(
            a: "--_-----",
            b: "----____",
            detents: "  ><<", EncoderConfiguration(stepsPerDetent: .one))
    }
}

/// One step per detent: a reversal's first transition counts once the lines hold still for the settle
/// time (5 ticks by default), stamped with its onset.
@Suite struct EncoderSettleMarbleTests {
    static let one = EncoderConfiguration(stepsPerDetent: .one)

    @Test func aReversalThatHoldsCountsStampedWithItsOnset() {
        // Clockwise at tick 2, back at tick 3 and held: counter-clockwise, stamped tick 3.
        let run = EncoderMarble.expect(
            a: "--_-----------",
            b: "--------------",
            detents: "  ><", Self.one)
        #expect(run.events.map(\.onsetNs) == [2, 3].map { $0 * EncoderMarble.tickNs })
        #expect(run.events.map(\.position) == [1, 0])
    }

    @Test func aReversalCountsAtItsDeadlineWithoutAnotherChange() {
        let ms: Int64 = 1_000_000
        var decoder = QuadratureDecoder(configuration: Self.one)
        #expect(decoder.receive(line: .a, level: .low, atNs: 2 * ms).isEmpty)
        #expect(decoder.advance(toNs: 2 * ms).map(\.direction) == [.clockwise])
        #expect(decoder.nextDeadlineNs == nil)
        #expect(decoder.receive(line: .a, level: .high, atNs: 3 * ms).isEmpty)
        #expect(decoder.nextDeadlineNs == 3 * ms)
        #expect(decoder.advance(toNs: 3 * ms).isEmpty)
        // The settle's end is the decoder's deadline: 5 ms after the lines last moved.
        #expect(decoder.nextDeadlineNs == 8 * ms)
        #expect(decoder.advance(toNs: 8 * ms - 1).isEmpty)
        let settled = decoder.advance(toNs: 8 * ms)
        #expect(settled.map(\.direction) == [.counterClockwise])
        #expect(settled.map(\.timeNs) == [3 * ms] && settled.map(\.onsetNs) == [3 * ms])
        #expect(decoder.nextDeadlineNs == nil && decoder.position == 0)
    }

    @Test func bounceDuringAReversalDelaysItsSettleNotItsStamp() {
        // Clockwise at tick 2; back at tick 7, bouncing at ticks 8 and 9: counter-clockwise, stamped 7.
        let run = EncoderMarble.expect(
            a: "--_____-_-----------",
            b: "--------------------",
            detents: "  >    <", Self.one)
        #expect(run.events.last?.onsetNs == 7 * EncoderMarble.tickNs)
        var decoder = QuadratureDecoder(configuration: Self.one)
        for (level, tick) in [(Level.low, 2), (.high, 7), (.low, 8), (.high, 9)] as [(Level, Int64)] {
            _ = decoder.receive(line: .a, level: level, atNs: tick * EncoderMarble.tickNs)
        }
        _ = decoder.advance(toNs: 9 * EncoderMarble.tickNs)
        #expect(decoder.nextDeadlineNs == 14 * EncoderMarble.tickNs)
    }

    @Test func bounceShorterThanTheSettleCountsNothing() {
        // Clockwise at tick 2, then A bounces back to 11 for up to 4 ticks at a time and rests at 01.
        EncoderMarble.expect(
            a: "--_-__-___----______",
            b: "--------------------",
            detents: "  >", Self.one)
    }

    @Test func aReversalHeldExactlyTheSettleCounts() {
        // Back at tick 3, on again at tick 8 (held 5 ticks): counted at 3; the turn at 8 is a
        // reversal too, held to the end of the input.
        EncoderMarble.expect(
            a: "--_-----_____",
            b: "-------------",
            detents: "  ><    >", Self.one)
    }

    @Test func aReversalHeldLessThanTheSettleAndTakenBackCountsNothing() {
        EncoderMarble.expect(
            a: "--_---______",
            b: "------------",
            detents: "  >", Self.one)
    }

    @Test func theSettleIsConfigurable() {
        // Back at tick 3, on again at tick 6: 3 ticks, enough with a 2 ms settle, not with 5 ms.
        var quick = Self.one
        quick.settleNs = 2_000_000
        EncoderMarble.expect(a: "--_--_____", b: "----------", detents: "  >< >", quick)
        EncoderMarble.expect(a: "--_--_____", b: "----------", detents: "  >", Self.one)
    }

    @Test func otherStepCountsHaveNoSettle() {
        // Two steps per detent: a detent at 00 (tick 3), one transition back at tick 4, held: nothing.
        let run = EncoderMarble.expect(
            a: "--_________",
            b: "---_-------",
            detents: "   >", EncoderConfiguration(stepsPerDetent: .two))
        #expect(run.decoder.nextDeadlineNs == nil)
    }

    @Test func aSuspectedLossWithholdsTheSettleUntilAResync() {
        let ms: Int64 = 1_000_000
        var decoder = QuadratureDecoder(configuration: Self.one)
        #expect(decoder.receive(a: .low, b: .high, atNs: 2 * ms).map(\.direction) == [.clockwise])
        decoder.suspectLoss()
        #expect(decoder.receive(a: .high, b: .high, atNs: 3 * ms).isEmpty)
        // Held long past the settle: nothing counts, since the lines may not be where the changes say.
        #expect(decoder.advance(toNs: 50 * ms).isEmpty)
        #expect(decoder.finish().isEmpty)
        // A second transition the same way counts both, as without a loss.
        #expect(decoder.receive(a: .high, b: .low, atNs: 60 * ms).map(\.timeNs) == [3 * ms, 60 * ms])
        // After a resync the settle counts again: clockwise back to 11, held.
        _ = decoder.resync(a: .high, b: .low, atNs: 70 * ms)
        #expect(decoder.receive(a: .high, b: .high, atNs: 80 * ms).isEmpty)
        #expect(decoder.advance(toNs: 85 * ms).map(\.timeNs) == [80 * ms])
    }
}

/// Both lines changing at one instant: a skipped state.
@Suite struct EncoderSkipMarbleTests {
    @Test func aSkipInsideATurnIsInferredAndStampedWithItsOwnTime() {
        // 11 → 01 → 00, then both rise at tick 4 (→ 11), and the turn goes on two transitions.
        let run = EncoderMarble.expect(
            a: "--__--__",
            b: "---_---_",
            detents: "    >")
        #expect(run.decoder.statistics.skips == 1 && run.decoder.statistics.inferredSkips == 1)
        #expect(run.decoder.statistics.lostSkips == 0)
    }

    @Test func anInferredDetentIsReportedWhenTwoTransitionsOnConfirmIt() {
        var decoder = QuadratureDecoder()
        let tick = EncoderMarble.tickNs
        #expect(decoder.receive(a: .low, b: .high, atNs: 2 * tick).isEmpty)
        #expect(decoder.receive(a: .low, b: .low, atNs: 3 * tick).isEmpty)
        #expect(decoder.receive(a: .high, b: .high, atNs: 4 * tick).isEmpty)
        #expect(decoder.advance(toNs: 5 * tick).isEmpty)
        #expect(decoder.receive(a: .low, b: .high, atNs: 6 * tick).isEmpty)
        let confirmed = decoder.receive(a: .low, b: .low, atNs: 7 * tick)
        #expect(Array(confirmed) == [EncoderEvent(direction: .clockwise, position: 1, timeNs: 4 * tick, onsetNs: 2 * tick)])
    }

    @Test func aSkipNextToAReversalIsLostNeverCountedTheWrongWay() {
        // 11 → 01 → 00, both rise (→ 11), then B falls (→ 10): counter-clockwise after the skip.
        let run = EncoderMarble.expect(
            a: "--__----",
            b: "---_--__",
            detents: "")
        #expect(run.decoder.statistics.lostSkips == 1)
        // Counting starts afresh at 11: a full cycle back is a detent.
        EncoderMarble.expect(
            a: "--__---__--",
            b: "---_--__---",
            detents: "         <")
    }

    @Test func bounceOnTheWayOnFromASkipStillLetsItBeInferred() {
        // 11 → 01 → 00, both rise (→ 11), then A falls with bounce (01, 11, 01) and B falls (00).
        let run = EncoderMarble.expect(
            a: "--__--_-___",
            b: "---_------_",
            detents: "    >")
        #expect(run.decoder.statistics.inferredSkips == 1)
    }

    @Test func oneTransitionBackFromALandingLosesTheSkipNeverCountingItTheWrongWay() {
        // Clockwise to 00, both lines at once to 11, B bounces (10, 11, 10) and the turn goes on
        // counter-clockwise to 11: whichever way the skip went, that ends a counter-clockwise detent.
        // (B's bounce, read forwards, would look like a turn going on clockwise.)
        let back = EncoderMarble.expect(
            a: "--__------___-",
            b: "---_--_-____--",
            detents: "             <")
        #expect(back.decoder.statistics.lostSkips == 1)
        // The same bounce in a turn that goes on clockwise: it looks the same as a reversal at the
        // skip, so the skip is lost, and with it the detent it completed.
        let on = EncoderMarble.expect(
            a: "--__-----___",
            b: "---_--_---__",
            detents: "")
        #expect(on.decoder.statistics.lostSkips == 1)
    }

    @Test func aSkipWithNothingBeforeItIsLost() {
        let run = EncoderMarble.expect(
            a: "--_-----",
            b: "--__----",
            detents: "")
        #expect(run.decoder.statistics.lostSkips == 1)
    }

    @Test func twoSkipsInARowAreLost() {
        // 11 → 01, both (→ 10), both (→ 01): the two skips could be a full cycle or nothing.
        let run = EncoderMarble.expect(
            a: "--_-_____",
            b: "---_-----",
            detents: "")
        #expect(run.decoder.statistics.skips == 2 && run.decoder.statistics.lostSkips == 2)
    }

    @Test func aSkipStillWaitingAtTheEndIsLost() {
        let run = EncoderMarble.expect(
            a: "--__--",
            b: "---_--",
            detents: "")
        #expect(run.decoder.statistics.lostSkips == 1)
    }

    @Test func aSkipInferredWithOneStepPerDetentIsTwoDetents() {
        var decoder = QuadratureDecoder(configuration: EncoderConfiguration(stepsPerDetent: .one))
        #expect(decoder.receive(a: .low, b: .high, atNs: 1).map(\.timeNs) == [1])
        #expect(decoder.receive(a: .high, b: .low, atNs: 2).isEmpty)
        #expect(decoder.receive(a: .high, b: .high, atNs: 3).isEmpty)
        let output = decoder.receive(a: .low, b: .high, atNs: 4)
        #expect(output.map(\.timeNs) == [2, 2, 3, 4])
        #expect(output.map(\.position) == [2, 3, 4, 5])
        #expect(output.allSatisfy { $0.direction == .clockwise })
    }

    @Test func oneInputReportsUpToSixDetents() {
        // One step per detent: a reversal waiting to settle, a skip, a transition on, a gathered
        // transition that settles the skip (the reversal's first transition, then four), and a sample
        // that applies it and moves on once more (a sixth).
        var decoder = QuadratureDecoder(configuration: EncoderConfiguration(stepsPerDetent: .one))
        #expect(decoder.receive(a: .low, b: .high, atNs: 1).count == 1)
        #expect(decoder.receive(a: .high, b: .high, atNs: 2).isEmpty)
        #expect(decoder.receive(a: .low, b: .low, atNs: 3).isEmpty)
        #expect(decoder.receive(a: .low, b: .high, atNs: 4).isEmpty)
        #expect(decoder.receive(line: .a, level: .high, atNs: 5).isEmpty)
        let output = decoder.receive(a: .high, b: .low, atNs: 6)
        #expect(output.count == EncoderOutput.capacity)
        #expect(output.map(\.timeNs) == [2, 3, 3, 4, 5, 6])
        #expect(output.allSatisfy { $0.direction == .counterClockwise })
        #expect(decoder.position == -5)
    }

    @Test func oneInputReportsUpToFiveDetentsWithoutAReversal() {
        // One step per detent: a skip, a transition on, a gathered transition that settles the skip
        // (four detents), then a sample that applies it and moves on once more (a fifth).
        var decoder = QuadratureDecoder(configuration: EncoderConfiguration(stepsPerDetent: .one))
        #expect(decoder.receive(a: .low, b: .high, atNs: 1).count == 1)
        #expect(decoder.receive(a: .high, b: .low, atNs: 2).isEmpty)
        #expect(decoder.receive(a: .high, b: .high, atNs: 3).isEmpty)
        #expect(decoder.receive(line: .a, level: .low, atNs: 4).isEmpty)
        let output = decoder.receive(a: .low, b: .low, atNs: 5)
        #expect(output.count == 5)
        #expect(output.map(\.timeNs) == [2, 2, 3, 4, 5])
        #expect(decoder.position == 6)
    }

    @Test func aLineThatChangesAndChangesBackAtOneInstantChangesNothing() {
        var decoder = QuadratureDecoder()
        #expect(decoder.receive(line: .a, level: .low, atNs: 5).isEmpty)
        #expect(decoder.receive(line: .a, level: .high, atNs: 5).isEmpty)
        #expect(decoder.nextDeadlineNs == 5)
        #expect(decoder.advance(toNs: 5).isEmpty)
        #expect(decoder.nextDeadlineNs == nil)
        #expect(decoder.statistics.skips == 0 && decoder.statistics.changes == 2)
    }
}
