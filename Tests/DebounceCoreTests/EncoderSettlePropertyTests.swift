import DebounceCore
import PropertyBased
import Simulation
import Testing

/// Properties of the settle with one step per detent (`EncoderConfiguration.settleNs`): reversals at
/// random times, with and without bounce, against `EncoderPropertyTests.oneStepModel`.
@Suite struct EncoderSettlePropertyTests {
    typealias Detent = EncoderPropertyTests.Detent

    /// A knob turned one transition at a time, each way at random (reversals half the time), each
    /// transition held for a random time around `settleNs` (a fifth of it to three times it, but not
    /// from `settleNs` to `clearNs` past it), so that reversals that settle, that move on before
    /// settling, and that are taken back all occur.
    /// No hold is shorter than `minimumHoldNs`.
    static func reversals(seed: UInt64, settleNs: Int64, count: Int, clearNs: Int64 = 0, minimumHoldNs: Int64 = 0) -> EncoderScript {
        var random = SplitMix64(seed: seed)
        var timeNs: Int64 = 1_000_000
        var direction = Bool.random(using: &random) ? 1 : -1
        var transitions: [EncoderScript.Transition] = []
        for _ in 0..<count {
            if Bool.random(using: &random) { direction = -direction }
            var heldNs = Int64.random(in: max(settleNs / 5, minimumHoldNs)...(3 * settleNs), using: &random)
            if heldNs >= settleNs, heldNs < settleNs + clearNs { heldNs = Bool.random(using: &random) ? settleNs - 1 : settleNs + clearNs }
            timeNs += heldNs
            transitions.append(EncoderScript.Transition(direction: direction, timeNs: timeNs, quietNs: timeNs))
        }
        return EncoderScript(initialPhase: Int.random(in: 0...3, using: &random), transitions: transitions)
    }

    static func detents(_ events: [EncoderEvent]) -> [Detent] {
        events.map { Detent(clockwise: $0.direction == .clockwise, timeNs: $0.timeNs, onsetNs: $0.onsetNs) }
    }

    @Test func bounceFreeReversalsAtRandomTimesGiveExactlyTheModelsDetents() async {
        await propertyCheck(count: 1000, input: Gen.uint64(), Gen.int64(in: 1_000_000...20_000_000), Gen.bool) { seed, settleNs, reverse in
            let script = Self.reversals(seed: seed, settleNs: settleNs, count: 60)
            let configuration = EncoderConfiguration(stepsPerDetent: .one, reverse: reverse, settleNs: settleNs)
            let model = EncoderPropertyTests.oneStepModel(script, reverse: reverse, settleNs: settleNs)
            for driver in EncoderPropertyTests.Driver.allCases {
                let (events, decoder) = EncoderPropertyTests.decode(script, configuration, driver: driver)
                #expect(Self.detents(events) == model, "\(driver)")
                #expect(decoder.position == model.reduce(0) { $0 + ($1.clockwise ? 1 : -1) })
            }
        }
    }

    @Test func bounceFreeEncoderTurnsGiveExactlyTheModelsDetents() async {
        // The general generator's runs, flicks, jiggles and pauses, without bounce.
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int64(in: 1_000_000...20_000_000)) { seed, settleNs in
            let script = EncoderScript(seed: seed, segments: 20, stepsPerDetent: 1, bounce: 0, skip: 0)
            let configuration = EncoderConfiguration(stepsPerDetent: .one, settleNs: settleNs)
            let (events, _) = EncoderPropertyTests.decode(script, configuration, driver: .deadlines)
            #expect(Self.detents(events) == EncoderPropertyTests.oneStepModel(script, reverse: false, settleNs: settleNs))
        }
    }

    /// Whether a reversal held between `settleNs` and `settleNs` plus its bounce settles on the true
    /// path but not on the bouncy one (the lines are still only from the bounce's end).
    static func heldWithinItsBounceOfTheSettle(_ script: EncoderScript, settleNs: Int64) -> Bool {
        zip(script.transitions, script.transitions.dropFirst()).contains { this, next in
            next.timeNs - this.timeNs >= settleNs && next.timeNs - this.quietNs < settleNs
        }
    }

    @Test func bounceShorterThanTheSettleNeverAddsOrRemovesADetent() async {
        await propertyCheck(count: 1000, input: Gen.uint64(), Gen.int64(in: 2_000_000...20_000_000), Gen.double(in: 0.2...1), Gen.bool) {
            seed, settleNs, bounce, random in
            // Reversals around the settle time, or the general generator's turns; bounce up to 1.5 ms.
            var script = EncoderScript(seed: seed, segments: 20, stepsPerDetent: 1, bounce: bounce, skip: 0)
            if random {
                // Clear of the settle by more than any bounce (1.5 ms); for half the seeds, no hold
                // shorter than 2.5 ms (then bounce, at most two fifths of a hold, stays shorter than
                // the lines stay before the next transition).
                let clean = Self.reversals(seed: seed, settleNs: settleNs, count: 60, clearNs: 1_600_000, minimumHoldNs: seed % 2 == 0 ? 2_500_000 : 0)
                script = EncoderScript(seed: seed, bouncing: clean.transitions, initialPhase: clean.initialPhase, bounce: bounce)
            }
            guard !Self.heldWithinItsBounceOfTheSettle(script, settleNs: settleNs) else { return }
            let configuration = EncoderConfiguration(stepsPerDetent: .one, settleNs: settleNs)
            let bouncy = EncoderPropertyTests.decode(script, configuration, driver: .deadlines)
            let clean = EncoderPropertyTests.decode(script.bounceFree, configuration, driver: .deadlines)
            #expect(bouncy.events.map(\.direction) == clean.events.map(\.direction))
            #expect(bouncy.decoder.position == clean.decoder.position)
            // When every transition follows the previous one's bounce by more than the longest burst
            // (a hand's reversal stays at a detent longer than bounce does), the stamps are the
            // model's, true transitions' times (the model takes the quiet after bounce as the lines
            // holding still). Closer, a reversal's stamp may be a bounce edge: within a burst after a
            // true transition.
            let model = EncoderPropertyTests.oneStepModel(script, reverse: false, settleNs: settleNs)
            let stays = zip(script.transitions, script.transitions.dropFirst()).map { $1.timeNs - $0.quietNs }
            if stays.allSatisfy({ $0 > script.maxBurstNs }) {
                #expect(bouncy.events.map(\.timeNs) == model.map(\.timeNs))
            } else {
                for event in bouncy.events {
                    #expect(script.transitions.contains { event.timeNs >= $0.timeNs && event.timeNs <= $0.quietNs }, "\(event)")
                }
            }
        }
    }

    @Test func theGeneratorsMakeWhatThePropertiesNeed() {
        // Reversals that settle, that move on, and that are taken back; and bouncy turns whose holds
        // are mostly clear of the settle plus their bounce.
        var settled = 0, movedOn = 0, takenBack = 0, clear = 0
        let settleNs: Int64 = 5_000_000
        for seed in 0..<100 as Range<UInt64> {
            let script = Self.reversals(seed: seed, settleNs: settleNs, count: 60)
            let transitions = script.transitions
            for index in 1..<(transitions.count - 1) where transitions[index].direction != transitions[index - 1].direction {
                let heldNs = transitions[index + 1].timeNs - transitions[index].timeNs
                if heldNs >= settleNs {
                    settled += 1
                } else if transitions[index + 1].direction == transitions[index].direction {
                    movedOn += 1
                } else {
                    takenBack += 1
                }
            }
            let clean = Self.reversals(seed: seed, settleNs: settleNs, count: 60, clearNs: 1_600_000)
            let bouncy = EncoderScript(seed: seed, bouncing: clean.transitions, initialPhase: clean.initialPhase, bounce: 1)
            #expect(bouncy.changes.count > clean.transitions.count * 2 && !Self.heldWithinItsBounceOfTheSettle(bouncy, settleNs: settleNs))
            let turn = EncoderScript(seed: seed, segments: 20, stepsPerDetent: 1, bounce: 0.5, skip: 0)
            if !Self.heldWithinItsBounceOfTheSettle(turn, settleNs: settleNs) { clear += 1 }
        }
        #expect(settled > 500 && movedOn > 200 && takenBack > 200)
        #expect(clear > 25, "\(clear) of 100 general turns clear of the settle")
    }
}
