/// Plays `SimulatedGestures` one press at a time, for `BouncyButton`: in rounds of every gesture once,
/// the first round in the gestures' order (a single click, a double click, ..., a hold, a repeat) and
/// each later one shuffled. A gesture that needs more presses than are left is skipped, so that a run of
/// N presses ends on whole gestures.
struct GesturePlayer: Sendable {
    /// How one press is played: the quiet pause before it, and how long it lasts (first edge of the
    /// press to first edge of the release), in nanoseconds.
    struct Press: Sendable, Hashable {
        var pauseNs: Int64
        var lengthNs: Int64
    }

    let gestures: SimulatedGestures
    private var round: [SimulatedGestures.Gesture]
    private var roundIndex = 0
    /// Presses still to come in the multi-click being played.
    private var clicksLeft = 0

    init(_ gestures: SimulatedGestures) {
        self.gestures = gestures
        self.round = gestures.gestures
    }

    /// The next press; `pressesLeft` counts it (nil: no end).
    mutating func nextPress(pressesLeft: Int?, using random: inout SplitMix64) -> Press {
        if clicksLeft > 0 {
            clicksLeft -= 1
            return Press(
                pauseNs: Int64.random(in: gestures.clickGapNs, using: &random), lengthNs: Int64.random(in: gestures.quickPressNs, using: &random))
        }
        let gesture = nextGesture(pressesLeft: pressesLeft ?? .max, using: &random)
        let pauseNs = Int64.random(in: gestures.pauseNs, using: &random)
        let lengthNs: Int64
        switch gesture {
        case .clicks(let count) where count > 1:
            clicksLeft = count - 1
            lengthNs = Int64.random(in: gestures.quickPressNs, using: &random)
        case .clicks:
            lengthNs = Int64.random(in: gestures.shortPressNs, using: &random)
        case .hold:
            lengthNs = Int64.random(in: gestures.holdPressNs, using: &random)
        case .repeat:
            lengthNs = Int64.random(in: gestures.repeatPressNs, using: &random)
        }
        return Press(pauseNs: pauseNs, lengthNs: lengthNs)
    }

    /// The round's next gesture that fits in `pressesLeft`, starting a shuffled round when this one is
    /// played. A single click always fits, so a round of two always has one.
    private mutating func nextGesture(pressesLeft: Int, using random: inout SplitMix64) -> SimulatedGestures.Gesture {
        let pressesLeft = Swift.max(pressesLeft, 1)
        while true {
            if roundIndex == round.count {
                round = gestures.gestures.shuffled(using: &random)
                roundIndex = 0
            }
            let gesture = round[roundIndex]
            roundIndex += 1
            if gesture.presses <= pressesLeft { return gesture }
        }
    }
}
