import DebounceCore
import Simulation

/// A random turn of a bouncy rotary encoder, reproducible from its seed: the true path of the knob
/// (one entry per transition, bounce-free) and the changes of lines A and B it gives, with bounce on
/// the changing line only and, when asked, both lines changing at one instant.
///
/// The turn is a sequence of segments: runs (2 to 60 detents per second), flicks (100 to 500 detents
/// per second), jiggles (a few transitions and back) and pauses (50 to 500 ms). A skipped state merges
/// two transitions of one run into one instant; only runs of at least three transitions have them,
/// so a skip always has a transition of its own run beside it (a hand that skips states is turning
/// fast and cannot reverse on both sides of one sample).
struct EncoderScript {
    /// One transition of the true path: +1 clockwise (A leads), -1 counter-clockwise; `quietNs` is
    /// when its line stopped bouncing (its time when it did not bounce).
    struct Transition: Equatable {
        var direction: Int
        var timeNs: Int64
        var quietNs: Int64
    }

    /// One change of a line, as the kernel would report it.
    struct Change: Equatable {
        var line: QuadratureDecoder.Line
        var level: Level
        var timeNs: Int64
    }

    /// The levels of lines A and B at each phase of the clockwise cycle 11 → 01 → 00 → 10.
    static let cycle: [(a: Level, b: Level)] = [(.high, .high), (.low, .high), (.low, .low), (.high, .low)]

    var initialPhase: Int
    var transitions: [Transition] = []
    var changes: [Change] = []
    /// The number of instants at which both lines changed.
    var skips = 0
    /// The longest burst of bounce, in nanoseconds.
    var maxBurstNs: Int64 = 0

    var initialA: Level { Self.cycle[initialPhase].a }
    var initialB: Level { Self.cycle[initialPhase].b }

    /// The bounce-free turn of `transitions` (times in order) from `initialPhase`: one change each.
    init(initialPhase: Int, transitions: [Transition]) {
        self.initialPhase = initialPhase
        self.transitions = transitions
        var phase = initialPhase
        for transition in transitions {
            let from = phase
            phase = (phase + transition.direction + 4) % 4
            let line: QuadratureDecoder.Line = Self.cycle[from].a != Self.cycle[phase].a ? .a : .b
            changes.append(Change(line: line, level: level(of: line, phase), timeNs: transition.timeNs))
        }
    }

    /// The turn of bounce-free `transitions` (times in order, no two at once) from `initialPhase`, each
    /// bouncing with probability `bounce` as `init(seed:segments:stepsPerDetent:bounce:skip:)` makes them.
    init(seed: UInt64, bouncing transitions: [Transition], initialPhase: Int, bounce: Double) {
        var random = SplitMix64(seed: seed)
        self.initialPhase = initialPhase
        build(runs: [(transitions.map(\.direction), transitions.map(\.timeNs), [])], bounce: bounce, random: &random)
    }

    /// This turn without its bounce: one change per transition (skips not allowed).
    var bounceFree: EncoderScript {
        EncoderScript(initialPhase: initialPhase, transitions: transitions.map { Transition(direction: $0.direction, timeNs: $0.timeNs, quietNs: $0.timeNs) })
    }

    /// A turn from `seed`: `segments` segments, detents of `stepsPerDetent` transitions, a transition
    /// bouncing with probability `bounce`, two transitions of a run merged with probability `skip`.
    init(seed: UInt64, segments: Int, stepsPerDetent: Int, bounce: Double, skip: Double) {
        var random = SplitMix64(seed: seed)
        initialPhase = Double.random(in: 0..<1, using: &random) < 0.75 ? 0 : Int.random(in: 0...3, using: &random)
        var timeNs: Int64 = 10_000_000
        // Each run: its directions and the time of each transition; merged pairs share a time.
        var runs: [(directions: [Int], times: [Int64], merged: Set<Int>)] = []
        var direction = Bool.random(using: &random) ? 1 : -1
        for _ in 0..<segments {
            let kind = Int.random(in: 0...9, using: &random)
            if kind == 0 {
                timeNs += Int64.random(in: 50_000_000...500_000_000, using: &random)
                continue
            }
            if Double.random(in: 0..<1, using: &random) < 0.4 { direction = -direction }
            let rate: Double
            let lengths: [Int]
            switch kind {
            case 1...2:  // a flick
                rate = Double.random(in: 100...500, using: &random)
                lengths = [Int.random(in: 8...60, using: &random)]
            case 3...4:  // a jiggle: a few transitions and back
                rate = Double.random(in: 2...60, using: &random)
                let depth = Int.random(in: 1...3, using: &random)
                lengths = [depth, depth]
            default:  // a run
                rate = Double.random(in: 2...60, using: &random)
                lengths = [Int.random(in: 1...16, using: &random)]
            }
            let intervalNs = Int64(1e9 / (rate * Double(stepsPerDetent)))
            for (number, length) in lengths.enumerated() {
                var times: [Int64] = []
                var merged = Set<Int>()
                var index = 0
                while index < length {
                    timeNs += max(2_000, intervalNs + Int64.random(in: -(intervalNs / 5)...(intervalNs / 5), using: &random))
                    times.append(timeNs)
                    if length >= 3, index + 1 < length, Double.random(in: 0..<1, using: &random) < skip {
                        merged.insert(index)
                        times.append(timeNs)
                        index += 2
                    } else {
                        index += 1
                    }
                }
                runs.append((Array(repeating: number == 0 ? direction : -direction, count: length), times, merged))
            }
        }
        build(runs: runs, bounce: bounce, random: &random)
    }

    /// The transitions and changes of `runs`, with bounce.
    private mutating func build(runs: [(directions: [Int], times: [Int64], merged: Set<Int>)], bounce: Double, random: inout SplitMix64) {
        var steps: [(direction: Int, timeNs: Int64, mergedWithNext: Bool)] = []
        for run in runs {
            for index in run.directions.indices {
                steps.append((run.directions[index], run.times[index], run.merged.contains(index)))
            }
        }
        var phase = initialPhase
        var index = 0
        while index < steps.count {
            let step = steps[index]
            let count = step.mergedWithNext ? 2 : 1
            let nextNs = index + count < steps.count ? steps[index + count].timeNs : step.timeNs + 10_000_000
            var lines: [QuadratureDecoder.Line] = []
            for _ in 0..<count {
                transitions.append(Transition(direction: step.direction, timeNs: step.timeNs, quietNs: step.timeNs))
                let from = phase
                phase = (phase + step.direction + 4) % 4
                lines.append(Self.cycle[from].a != Self.cycle[phase].a ? .a : .b)
            }
            for line in lines {
                changes.append(Change(line: line, level: level(of: line, phase), timeNs: step.timeNs))
            }
            if count == 2 { skips += 1 }
            if Double.random(in: 0..<1, using: &random) < bounce {
                // Bounce on the line that changed last (after a skip, the second of its two transitions: the
                // first line has settled, or it would be bouncing across the second's change), ending well
                // before the next transition.
                let line = lines[lines.count - 1]
                let limitNs = min(1_500_000, (nextNs - step.timeNs) * 2 / 5)
                let toggles = 2 * Int.random(in: 1...3, using: &random)
                if limitNs > Int64(toggles) {
                    var offsets = Set<Int64>()
                    while offsets.count < toggles { offsets.insert(Int64.random(in: 1...limitNs, using: &random)) }
                    let settled = level(of: line, phase)
                    for (number, offset) in offsets.sorted().enumerated() {
                        changes.append(Change(line: line, level: number % 2 == 0 ? settled.toggled : settled, timeNs: step.timeNs + offset))
                    }
                    maxBurstNs = max(maxBurstNs, offsets.max() ?? 0)
                    for last in transitions.indices.suffix(count) { transitions[last].quietNs = step.timeNs + (offsets.max() ?? 0) }
                }
            }
            index += count
        }
    }

    private func level(of line: QuadratureDecoder.Line, _ phase: Int) -> Level {
        line == .a ? Self.cycle[phase].a : Self.cycle[phase].b
    }
}
