import Actions
import ConfigurationFile
import EventLoop
import EventOutput
import InputModel
import Inputs
import Pipeline
import Recording
import Settings

/// A configuration's input that a recorded trace of one line is replayed through (`replay --config`):
/// an input of one line whose kind takes a trace (`InputKinds.replayTarget`), its line the trace's
/// line 0, with its stages, its groups' lockouts and the actions its events would start (shown after
/// each event, never run). Inputs of several lines are not replayed this way.
package struct ReplayedInput: Sendable {
    /// What a replay's summary counts, as the input's kind says (`ReplayTarget.Counted`).
    package typealias Kind = ReplayTarget.Counted

    package var name: String
    /// How the input takes the trace, as its kind says.
    private var target: ReplayTarget
    package var kind: Kind { target.counted }
    /// The trace's one line through the input's stages, with the configuration's groups.
    package var pipeline: PipelinePlan
    private var actions: [Action]
    /// The input's actions.
    private var bindings: [InputActionBinding]
    /// The input as its actions see it.
    private var presenter: any InputPresenter
    /// Its place in the configuration's inputs, which its outputs name (`OutputSource.input`).
    private var input: Int

    /// The input `name` of `configuration` that takes a trace of one line, or its only one when `name` is nil.
    package init(_ configuration: ServiceConfiguration, name: String?) throws(ReplayedInputError) {
        let roster = configuration.roster
        // Every input a trace of one line can drive, with its line.
        let candidates: [(input: Roster.Input, target: ReplayTarget, index: Int)] = roster.inputs.enumerated().compactMap { index, input in
            InputKinds.replayTarget(of: input).map { (input, $0, index) }
        }
        let names = candidates.map(\.input.name)
        let chosen: (input: Roster.Input, target: ReplayTarget, index: Int)
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
        target = chosen.target
        pipeline = PipelinePlan(lines: [plan.plans[line]], groups: plan.groups)
        actions = plan.actions
        // Its outputs name its input, as in a run (`LinePlan.input`): its bindings and presenter are the run's.
        bindings = plan.actionBindings.filter { $0.input == chosen.index }
        presenter = InputKinds.presenters(of: roster, place: nil)[chosen.index]
        input = chosen.index
    }

    /// What a replay through the input writes to `output` in `format`: each event, and after it the
    /// actions it would start.
    package func sinks(format: EventFormat, output: OutputBuffer) -> [any Sink] {
        [
            EventPrinter(
                writer: EventWriter(format: format, output: output), lineFields: [target.fields], printers: target.printer.map { [input: $0] } ?? [:]),
            ActionPreview(actions: actions, bindings: bindings, inputs: [presenter], format: format, output: output),
        ]
    }
}

/// Why a configuration has no input to replay a trace through.
package enum ReplayedInputError: Error, Sendable, Hashable {
    /// No input of one line (one that takes a trace, `InputKinds.replayTarget`) has the name asked
    /// for; `inputs` are those it has.
    case noSuchInput(name: String, inputs: [String])
    /// No name was given, and the configuration has not exactly one input of one line.
    case notOne(inputs: [String])

    /// The message for the user, about the configuration `file`.
    package func message(file: String) -> String {
        switch self {
        case .noSuchInput(let name, let inputs):
            "\(file) has no input of one line (a trace is of one line) named \"\(name)\"; it has: \(inputs.joined(separator: ", "))"
        case .notOne(let inputs):
            "\(file) has \(inputs.count) inputs of one line: say which with --input (\(inputs.joined(separator: ", ")))"
        }
    }
}
