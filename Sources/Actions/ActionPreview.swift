import DebounceCore
import EventLoop
import InputModel
import Pipeline
import Settings
import SystemPackage
import EventOutput

/// The sink that shows which actions an event would start, without running any: for trying a
/// configuration against a recording (`replay --config`) or on simulated lines (`run --simulate`). It matches events to actions exactly as
/// `ActionRunner` does and writes one line per action an event starts, right after the event's own
/// line (the printer writes to the same `OutputBuffer` and comes first in the loop's sinks).
///
/// Text: `  would run "NAME": ARGUMENTS…`; JSON: `{"event":"action","action":NAME,"arguments":[…],
/// "on":KIND,"time_ns":…}`. What the runner's policies would do with a command still running (queue,
/// drop) is not simulated: every start is shown.
package final class ActionPreview: Sink {
    private let actions: [Action]
    /// The bindings of each input, with what its outputs are (`InputPresenter.actionOccasion(for:)`).
    private let inputs: BoundInputs<InputActionBinding>
    private let format: EventFormat
    private let output: OutputBuffer
    /// Actions shown so far.
    package private(set) var shownCount = 0

    /// A preview of `actions` as `bindings` say the outputs of `inputs` start them, written to `output`.
    package init(actions: [Action], bindings: [InputActionBinding], inputs: [any InputPresenter], format: EventFormat, output: OutputBuffer) {
        self.actions = actions
        self.inputs = BoundInputs(bindings.filter { actions.indices.contains($0.action) }, input: \.input, inputs: inputs)
        self.format = format
        self.output = output
    }

    /// Events only.
    package var consumesEdges: Bool { false }
    /// Each line is written in `consume`.
    package var writesOutputsAtOnce: Bool { output.writesEachLine }

    /// A code entered on an input: each action it would start (never the code itself).
    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) throws(SinkError) {
        guard let (input, bindings) = inputs.bound(source), let occasion = input.actionOccasion(for: code) else { return }
        try show(occasion, of: source, bindings: bindings)
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        guard let source = output.source, let (input, bindings) = inputs.bound(source), let occasion = input.actionOccasion(for: output) else { return }
        try show(occasion, of: source, bindings: bindings)
    }

    /// A line for each action of `bindings` (its input's) that `occasion`, an output of `source`, starts.
    private func show(_ occasion: ActionOccasion, of source: OutputSource, bindings: [InputActionBinding]) throws(SinkError) {
        for binding in bindings where occasion.answers(binding.on, count: binding.count, boundLine: binding.line, line: source.lineIndex) {
            do { try show(actions[binding.action], on: occasion.on, timeNs: occasion.timeNs) } catch { throw SinkError("cannot write the actions", error) }
            shownCount += 1
        }
    }

    package func finish(atNs nowNs: Int64) throws(SinkError) {
        do { try output.flush() } catch { throw SinkError("cannot write the actions", error) }
    }

    /// One line for `action`, started by an event of kind `on` (its input's own word for the output:
    /// `press`, `cw`, `pulse`, ...) at `timeNs`.
    private func show(_ action: Action, on: String, timeNs: Int64) throws(Errno) {
        switch format {
        case .text:
            output.appendUTF8("  would run \(JSONText.quoted(action.name)): \(action.arguments.map(Self.shellQuoted).joined(separator: " "))")
        case .json:
            let arguments = action.arguments.map(JSONText.quoted).joined(separator: ",")
            output.appendUTF8(
                "{\"event\":\"action\",\"action\":\(JSONText.quoted(action.name)),\"arguments\":[\(arguments)],\"on\":\"\(on)\",\"time_ns\":\(timeNs)}")
        }
        try output.endLine()
    }

    /// `argument` as a POSIX shell would need it to read it back: bare when it is only safe characters,
    /// else in single quotes.
    static func shellQuoted(_ argument: String) -> String {
        let safe = argument.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a) || "-_./=:,+@%".utf8.contains(byte)
        }
        if safe, !argument.isEmpty { return argument }
        return "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
