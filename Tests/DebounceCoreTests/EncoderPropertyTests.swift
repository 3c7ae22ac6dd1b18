import DebounceCore
import PropertyBased
import Simulation
import Testing

/// Properties over thousands of random turns of a bouncy encoder (`EncoderScript`): the decoder,
/// fed the bouncy changes, against the model, fed the knob's true bounce-free path.
@Suite struct EncoderPropertyTests {
    /// A detent of the model or the decoder, without the fields only the decoder knows.
    struct Detent: Equatable, CustomStringConvertible {
        var clockwise: Bool
        var timeNs: Int64
        var onsetNs: Int64
        var description: String { "\(clockwise ? "cw" : "ccw")@\(timeNs)(onset \(onsetNs))" }
    }

    /// The rules on the true path: a detent counts when the position, in transitions, reaches a whole
    /// detent from the last one counted; counting starts at the first detent position; the onset is
    /// the latest departure from the last detent. One step per detent: `oneStepModel`.
    static func model(_ script: EncoderScript, stepsPerDetent: Int, reverse: Bool, settleNs: Int64 = EncoderConfiguration.defaultSettleNs) -> [Detent] {
        if stepsPerDetent == 1 { return oneStepModel(script, reverse: reverse, settleNs: settleNs) }
        let allowance = 0
        var position = script.initialPhase
        var rest: Int? = position % stepsPerDetent == 0 ? position : nil
        var lastClockwise: Bool?
        var departureNs: Int64 = 0
        var detents: [Detent] = []
        for transition in script.transitions {
            position += transition.direction
            guard let from = rest else {
                if position % stepsPerDetent == 0 {
                    rest = position
                    departureNs = transition.timeNs
                }
                continue
            }
            if position - transition.direction == from { departureNs = transition.timeNs }
            let clockwise = transition.direction > 0
            let needed = stepsPerDetent + (lastClockwise.map { $0 != clockwise } == true ? allowance : 0)
            if (position - from) * transition.direction == needed {
                rest = position
                lastClockwise = clockwise
                detents.append(Detent(clockwise: clockwise != reverse, timeNs: transition.timeNs, onsetNs: departureNs))
            }
        }
        return detents
    }

    /// One step per detent, on the true path and the times its lines went quiet: every transition is a
    /// detent, except a reversal's first (against the latest detent's direction), which counts, stamped
    /// with its own time, once the lines have been quiet for `settleNs` (or at the end), or with the
    /// next transition if that goes on the same way; taken back before, it counts nothing. Of the
    /// departures from the rest position before it settles, the one after the longest quiet stay there
    /// is the reversal's. While a skip waits for its direction (from a skipped state until the path
    /// moves two transitions on from its landing the way the single transition before it went, or one
    /// back; at once when no single transition came just before it, or when its second line bounced,
    /// which is one back), nothing settles: the decoder cannot tell the lines' moves there from bounce.
    static func oneStepModel(_ script: EncoderScript, reverse: Bool, settleNs: Int64) -> [Detent] {
        var position = script.initialPhase
        var rest = position
        var clockwiseAt = rest + 1, counterClockwiseAt = rest - 1
        var pending: (onsetNs: Int64, direction: Int, stayNs: Int64)?
        var departureNs: Int64 = 0
        var quietNs: Int64 = 0
        var previousNs: Int64?
        var skipLanding: (position: Int, direction: Int)?
        var detents: [Detent] = []
        func count(_ direction: Int, atNs timeNs: Int64, onsetNs: Int64) {
            rest = position
            clockwiseAt = rest + (direction > 0 ? 1 : 2)
            counterClockwiseAt = rest - (direction > 0 ? 2 : 1)
            pending = nil
            detents.append(Detent(clockwise: (direction > 0) != reverse, timeNs: timeNs, onsetNs: onsetNs))
        }
        func settle() {
            guard let reversal = pending else { return }
            if position == rest {
                pending = nil
            } else if position - rest == reversal.direction {
                count(reversal.direction, atNs: reversal.onsetNs, onsetNs: reversal.onsetNs)
            }
        }
        let transitions = script.transitions
        for (index, transition) in transitions.enumerated() {
            if pending != nil, skipLanding == nil, transition.timeNs - quietNs >= settleNs { settle() }
            let direction = transition.direction
            position += direction
            if let landing = skipLanding, landing.direction == 0 || [2, -1].contains((position - landing.position) * landing.direction) { skipLanding = nil }
            if transition.timeNs == previousNs, transition.quietNs == transition.timeNs {
                // The second of a skip's pair: the transition before the pair, if single, gives the way.
                let single = index >= 2 && (index < 3 || transitions[index - 2].timeNs != transitions[index - 3].timeNs)
                skipLanding = (position, single ? transitions[index - 2].direction : 0)
            }
            previousNs = transition.timeNs
            if position - direction == rest {
                departureNs = transition.timeNs
                let stayNs = transition.timeNs - quietNs
                if pending.map({ $0.direction != direction || $0.stayNs < stayNs }) ?? true { pending = (transition.timeNs, direction, stayNs) }
            }
            if position == clockwiseAt || position == counterClockwiseAt {
                if (position - rest).magnitude == 2, let reversal = pending {
                    let first = position
                    position -= direction
                    count(direction, atNs: reversal.onsetNs, onsetNs: reversal.onsetNs)
                    position = first
                    departureNs = transition.timeNs
                }
                count(direction, atNs: transition.timeNs, onsetNs: min(departureNs, transition.timeNs))
            }
            quietNs = transition.quietNs
        }
        if skipLanding == nil { settle() }
        return detents
    }

    /// How a driver feeds the decoder.
    enum Driver: CaseIterable {
        /// Each change, then `advance(toNs:)` once an instant's changes are in.
        case perLineAdvancing
        /// Each instant's levels of both lines at once.
        case sampled
        /// Each change, never advancing: the next change applies an observation, `finish()` the last.
        case lazy
        /// As the event loop: before each change, `advance(toNs:)` to every deadline the decoder gives
        /// up to it (a gathered observation, a settle's end), then the change.
        case deadlines
    }

    static func decode(_ script: EncoderScript, _ configuration: EncoderConfiguration, driver: Driver) -> (events: [EncoderEvent], decoder: QuadratureDecoder) {
        var decoder = QuadratureDecoder(configuration: configuration, a: script.initialA, b: script.initialB)
        var events: [EncoderEvent] = []
        var levels = (a: script.initialA, b: script.initialB)
        for (index, change) in script.changes.enumerated() {
            let lastOfInstant = index + 1 == script.changes.count || script.changes[index + 1].timeNs != change.timeNs
            switch driver {
            case .deadlines:
                while let deadlineNs = decoder.nextDeadlineNs, deadlineNs < change.timeNs { events += decoder.advance(toNs: deadlineNs) }
                events += decoder.receive(line: change.line, level: change.level, atNs: change.timeNs)
            case .perLineAdvancing, .lazy:
                events += decoder.receive(line: change.line, level: change.level, atNs: change.timeNs)
                if driver == .perLineAdvancing, lastOfInstant { events += decoder.advance(toNs: change.timeNs) }
            case .sampled:
                if change.line == .a { levels.a = change.level } else { levels.b = change.level }
                if lastOfInstant { events += decoder.receive(a: levels.a, b: levels.b, atNs: change.timeNs) }
            }
        }
        if driver == .deadlines, let deadlineNs = decoder.nextDeadlineNs { events += decoder.advance(toNs: deadlineNs) }
        if driver == .deadlines, let deadlineNs = decoder.nextDeadlineNs { events += decoder.advance(toNs: deadlineNs) }
        events += decoder.finish()
        return (events, decoder)
    }

    /// Whether `part` is `whole` with some elements left out, in order, compared by `same`.
    static func isSubsequence<T, U>(_ part: [T], of whole: [U], _ same: (U, T) -> Bool) -> Bool {
        var next = whole.startIndex
        for element in part {
            guard let found = whole[next...].firstIndex(where: { same($0, element) }) else { return false }
            next = found + 1
        }
        return true
    }

    /// The first decoded detent that is not in the model (after the ones matched before it), with
    /// the model's detents around that time.
    static func firstDifference(_ decoded: [Detent], _ model: [Detent]) -> String {
        var next = 0
        for detent in decoded {
            guard let found = model[next...].firstIndex(where: { $0.clockwise == detent.clockwise && $0.timeNs == detent.timeNs }) else {
                let around = model.filter { ($0.timeNs - detent.timeNs).magnitude < 50_000_000 }
                return "decoded \(detent), not in the model; the model around it: \(around)"
            }
            next = found + 1
        }
        return "none"
    }

    static let steps: [EncoderConfiguration.StepsPerDetent] = [.one, .two, .four]

    /// Checks the decoder's detents against the model's and against the true path; returns how many
    /// model detents were lost.
    static func check(seed: UInt64, steps: EncoderConfiguration.StepsPerDetent, reverse: Bool, bounce: Double, skip: Double) -> Int {
        let script = EncoderScript(seed: seed, segments: 20, stepsPerDetent: steps.rawValue, bounce: bounce, skip: skip)
        let configuration = EncoderConfiguration(stepsPerDetent: steps, reverse: reverse)
        let (events, decoder) = decode(script, configuration, driver: .perLineAdvancing)
        let model = model(script, stepsPerDetent: steps.rawValue, reverse: reverse)
        let decoded = events.map { Detent(clockwise: $0.direction == .clockwise, timeNs: $0.timeNs, onsetNs: $0.onsetNs) }
        let statistics = decoder.statistics
        #expect(statistics.skips == script.skips)
        #expect(statistics.inferredSkips + statistics.lostSkips == statistics.skips)

        // No detent in the wrong direction: each is stamped with a true transition's time (with one
        // step per detent, a settled reversal's stamp may be a bounce edge of its transition's burst:
        // EncoderSettlePropertyTests), and turns its way.
        func truth(of detent: Detent) -> EncoderScript.Transition? {
            script.transitions.first { $0.timeNs == detent.timeNs }
                ?? (steps == .one ? script.transitions.last { detent.timeNs > $0.timeNs && detent.timeNs <= $0.quietNs } : nil)
        }
        for detent in decoded {
            let truth = truth(of: detent)
            #expect(truth.map { ($0.direction > 0) != reverse } == detent.clockwise, "\(detent) against \(String(describing: truth))")
        }
        // The model's detents, except those lost with skips: the same directions at the same times.
        // With one step per detent and a skip lost, the decoder counts afresh from the landing, and
        // a reversal that settles there counts though the model (which follows the skip) held it back:
        // each detent is then one true transition, its way, none counted twice.
        if steps == .one, statistics.lostSkips > 0 {
            let truth = script.transitions.map { Detent(clockwise: ($0.direction > 0) != reverse, timeNs: $0.timeNs, onsetNs: $0.timeNs) }
            let within = isSubsequence(decoded, of: script.transitions) { transition, detent in
                ((transition.direction > 0) != reverse) == detent.clockwise
                    && (detent.timeNs == transition.timeNs || (detent.timeNs > transition.timeNs && detent.timeNs <= transition.quietNs))
            }
            #expect(within, "\(firstDifference(decoded, truth))")
        } else {
            #expect(isSubsequence(decoded, of: model) { $0.clockwise == $1.clockwise && $0.timeNs == $1.timeNs }, "\(firstDifference(decoded, model))")
        }
        let lost = model.count - decoded.count
        #expect(lost >= (steps == .one ? -statistics.lostSkips * 6 : 0) && lost <= statistics.lostSkips * (steps == .one ? 6 : 3), "\(lost) lost with \(statistics.lostSkips) lost skips")
        if statistics.lostSkips == 0 {
            #expect(decoded.count == model.count)
            // The onset is the true departure, or a later bounce edge of that transition.
            for (got, expected) in zip(decoded, model) {
                #expect(got.onsetNs >= expected.onsetNs && got.onsetNs <= expected.onsetNs + script.maxBurstNs && got.onsetNs <= got.timeNs)
            }
            #expect(events.last.map(\.position) ?? 0 == model.reduce(0) { $0 + ($1.clockwise ? 1 : -1) })
        }
        return lost
    }

    @Test func bounceOnTheChangingLineGivesExactlyTheModelsDetents() async {
        await propertyCheck(count: 1500, input: Gen.uint64(), Gen.int(in: 0...2), Gen.bool, Gen.double(in: 0...1)) { seed, steps, reverse, bounce in
            let lost = Self.check(seed: seed, steps: Self.steps[steps], reverse: reverse, bounce: bounce, skip: 0)
            #expect(lost == 0)
        }
    }

    @Test func skippedStatesAreInferredOrCountedLostNeverCountedTheWrongWay() async {
        await propertyCheck(count: 1500, input: Gen.uint64(), Gen.int(in: 0...2), Gen.bool, Gen.double(in: 0...1), Gen.double(in: 0.02...0.4)) {
            seed, steps, reverse, bounce, skip in
            _ = Self.check(seed: seed, steps: Self.steps[steps], reverse: reverse, bounce: bounce, skip: skip)
        }
    }

    @Test func everyDriverGivesTheSameDetents() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 0...2), Gen.double(in: 0...0.3)) { seed, steps, skip in
            let script = EncoderScript(seed: seed, segments: 12, stepsPerDetent: Self.steps[steps].rawValue, bounce: 0.5, skip: skip)
            let configuration = EncoderConfiguration(stepsPerDetent: Self.steps[steps], acceleration: .init(thresholdPerSecond: 50, factor: 3))
            let runs = Driver.allCases.map { Self.decode(script, configuration, driver: $0) }
            for run in runs.dropFirst() {
                #expect(run.events == runs[0].events)
                #expect(run.decoder.statistics.lostSkips == runs[0].decoder.statistics.lostSkips)
                #expect(run.decoder.position == runs[0].decoder.position)
            }
        }
    }

    @Test func theGeneratorMakesWhatThePropertiesNeed() {
        // Flicks reach 500 detents per second, bounce and skips occur, and the models count detents both ways.
        var skips = 0, bounced = 0, clockwise = 0, counterClockwise = 0, fastest: Int64 = .max
        for seed in 0..<200 as Range<UInt64> {
            let script = EncoderScript(seed: seed, segments: 20, stepsPerDetent: 4, bounce: 0.5, skip: 0.2)
            skips += script.skips
            bounced += script.changes.count > script.transitions.count ? 1 : 0
            for pair in zip(script.transitions, script.transitions.dropFirst()) where pair.1.timeNs > pair.0.timeNs {
                fastest = min(fastest, pair.1.timeNs - pair.0.timeNs)
            }
            let model = Self.model(script, stepsPerDetent: 4, reverse: false)
            clockwise += model.count { $0.clockwise }
            counterClockwise += model.count { !$0.clockwise }
        }
        #expect(skips > 100 && bounced > 150)
        #expect(clockwise > 500 && counterClockwise > 500)
        #expect(fastest < 600_000)  // 500 detents per second is 500 µs per transition
    }
}
