import EventLoop
import InputModel
import LineInput

/// Which of the sink's inputs are watched now, for their availability topics
/// (`<base>/<input>/availability`, `online` or `offline`, retained): an input is away while one of its
/// lines is on a chip that went away (`ChipAvailability`), and back once all its lines are watched
/// again. Pure: the sink publishes what it says.
struct MQTTInputAvailability: Sendable {
    /// One input: its name (a topic level) and its run lines (`InputDescription.lines`).
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
    /// The availability of `inputs`, all watched, each following the lines its description lists (a
    /// matrix's keys, whose rows and columns are on the chip whose change names them).
    init(_ inputs: [InputDescription]) {
        self.init(inputs: inputs.map { Input(name: $0.name, lines: $0.lines) })
    }
}
