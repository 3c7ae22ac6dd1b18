import EventLoop
import LineInput

/// Which of the sink's inputs are watched now, for their availability topics
/// (`<base>/<input>/availability`, `online` or `offline`, retained): an input is away while one of its
/// lines is on a chip that went away (`ChipAvailability`), and back once all its lines are watched
/// again. Pure: the sink publishes what it says.
struct MQTTInputAvailability: Sendable {
    /// One input: its name (a topic level) and its run lines (an encoder has two).
    struct Input: Sendable, Hashable {
        var name: String
        var lines: [Int]
    }

    let inputs: [Input]
    /// The run lines on chips that are away now.
    private var awayLines: Set<Int> = []

    init(inputs: [Input]) {
        self.inputs = inputs
    }

    /// Whether input `index` (in `inputs`) has every line watched now.
    func isAvailable(_ index: Int) -> Bool {
        !inputs[index].lines.contains(where: awayLines.contains)
    }

    /// Notes `change`, and returns the inputs whose availability it changed, with their availability now.
    mutating func note(_ change: ChipAvailability) -> [(name: String, isAvailable: Bool)] {
        let before = inputs.indices.map(isAvailable)
        if change.isAvailable {
            awayLines.subtract(change.lines)
        } else {
            awayLines.formUnion(change.lines)
        }
        return inputs.indices.compactMap { index in
            let now = isAvailable(index)
            return now == before[index] ? nil : (inputs[index].name, now)
        }
    }
}

extension MQTTInputAvailability {
    /// The availability of the sink's inputs, all watched: buttons, encoders, sensors, counters and
    /// keypads. A keypad's lines are its keys': a chip's change naming any of them (its source's rows
    /// and columns are on it) makes the keypad away or back.
    init(buttons: [MQTTButton], encoders: [MQTTEncoder], sensors: [MQTTSensor], counters: [MQTTCounter], keypads: [MQTTKeypad] = []) {
        var inputs: [Input] = buttons.map { Input(name: $0.name, lines: [$0.lineIndex]) }
        inputs += encoders.map { Input(name: $0.name, lines: $0.lineIndices) }
        inputs += sensors.map { Input(name: $0.name, lines: [$0.lineIndex]) }
        inputs += counters.map { Input(name: $0.name, lines: [$0.lineIndex]) }
        inputs += keypads.map { Input(name: $0.name, lines: $0.lineIndices) }
        self.init(inputs: inputs)
    }
}
