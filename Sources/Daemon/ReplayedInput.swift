import Actions
import ConfigurationFile
import EventLoop
import EventOutput
import InputModel
import Inputs
import Pipeline
import Recording
import Settings

/// A configuration's input that a recorded trace of one line is replayed through (`replay --config`): a
/// button, a sensor or a counter, its line the trace's line 0, with its stages, its groups' lockouts and
/// the actions its events would start (shown after each event, never run). An encoder (two lines) and a
/// keypad (a matrix) are not replayed this way.
package struct ReplayedInput: Sendable {
    /// What the input is, for the words of a replay's summary.
    package enum Kind: Sendable, Hashable {
        /// A button: presses and releases.
        case button
        /// A sensor: its contact's debounced changes to on and to off (before `on_delay` and `off_delay`).
        case sensor
        /// A counter: its pulses.
        case counter
    }

    package var name: String
    package var kind: Kind
    /// The trace's one line through the input's stages, with the configuration's groups.
    package var pipeline: PipelinePlan
    /// What each event of the line is printed with (`{"button":"lights"}`).
    private var fields: EventFields
    /// For a counter, its pulses per unit and its rate's unit (W, L/min, m³/h, pulses/min).
    private var perUnit: Double?
    private var rateUnit: String?
    private var actions: [Action]
    /// The input's actions.
    private var bindings: [InputActionBinding]
    /// The input as its actions see it.
    private var presenter: any InputPresenter

    /// The button, sensor or counter `name` of `configuration`, or its only one when `name` is nil.
    package init(_ configuration: ServiceConfiguration, name: String?) throws(ReplayedInputError) {
        let roster = configuration.roster
        // Every input a trace of one line can drive, with its line.
        let candidates: [(input: Roster.Input, kind: Kind, index: Int)] = roster.inputs.enumerated().compactMap { index, input in
            switch input.kind {
            case .button: (input, .button, index)
            case .sensor: (input, .sensor, index)
            case .counter: (input, .counter, index)
            case .encoder, .keypad: nil
            }
        }
        let names = candidates.map(\.input.name)
        let chosen: (input: Roster.Input, kind: Kind, index: Int)
        if let name {
            guard let found = candidates.first(where: { $0.input.name == name }) else { throw .noSuchInput(name: name, inputs: names) }
            chosen = found
        } else {
            guard candidates.count == 1, let only = candidates.first else { throw .notOne(inputs: names) }
            chosen = only
        }
        let line = chosen.input.lines[0].index
        let plan = DaemonPlan(configuration)
        self.name = chosen.input.name
        kind = chosen.kind
        pipeline = PipelinePlan(lines: [plan.plans[line]], groups: plan.groups)
        actions = plan.actions
        // Its outputs name its input, as in a run (`LinePlan.input`): its bindings and presenter are the run's.
        bindings = plan.actionBindings.filter { $0.input == chosen.index }
        presenter = InputKinds.presenters(of: roster, place: nil)[chosen.index]
        switch chosen.input.kind {
        case .counter(let counter):
            fields = EventFields([.text("counter", self.name)])
            (perUnit, rateUnit) = (counter.perUnit, counter.rateUnit)
        case .sensor:
            fields = EventFields([.text("sensor", self.name)])
        case .button, .encoder, .keypad:
            fields = EventFields([.text("button", self.name)])
        }
    }

    /// What a replay through the input writes to `output` in `format`: each event, and after it the
    /// actions it would start.
    package func sinks(format: EventFormat, output: OutputBuffer) -> [any Sink] {
        [
            EventPrinter(
                writer: EventWriter(format: format, output: output), lineFields: [fields], contactLines: kind == .sensor ? [0] : [],
                perUnit: perUnit.map { [0: $0] } ?? [:], rateUnits: rateUnit.map { [0: $0] } ?? [:]),
            ActionPreview(actions: actions, bindings: bindings, inputs: [presenter], format: format, output: output),
        ]
    }
}

/// Why a configuration has no input to replay a trace through.
package enum ReplayedInputError: Error, Sendable, Hashable {
    /// No button, sensor or counter has the name asked for; `inputs` are those it has.
    case noSuchInput(name: String, inputs: [String])
    /// No name was given, and the configuration has not exactly one button, sensor or counter.
    case notOne(inputs: [String])

    /// The message for the user, about the configuration `file`.
    package func message(file: String) -> String {
        switch self {
        case .noSuchInput(let name, let inputs):
            "\(file) has no button, sensor or counter named \"\(name)\"; it has: \(inputs.joined(separator: ", "))"
        case .notOne(let inputs):
            "\(file) has \(inputs.count) buttons, sensors and counters: say which with --button (\(inputs.joined(separator: ", ")))"
        }
    }
}
