import DebounceCore
import EventLoop
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
    private let bindingsOfLine: [[ActionBinding]]
    private let contactBindings: [ContactActionBinding]
    private let encoderBindings: [EncoderActionBinding]
    private let counterBindings: [CounterActionBinding]
    private let codeBindings: [CodeActionBinding]
    private let format: EventFormat
    private let output: OutputBuffer
    /// Actions shown so far.
    package private(set) var shownCount = 0

    /// A preview of `actions` as `bindings` (a contact's changes, `contactBindings`, an encoder's
    /// detents, `encoderBindings`, and a counter's pulses and rates, `counterBindings`) start them, for
    /// `lineCount` lines, written to `output`.
    package init(
        actions: [Action], bindings: [ActionBinding], contactBindings: [ContactActionBinding] = [], encoderBindings: [EncoderActionBinding] = [],
        counterBindings: [CounterActionBinding] = [], codeBindings: [CodeActionBinding] = [], lineCount: Int, format: EventFormat, output: OutputBuffer
    ) {
        self.actions = actions
        self.counterBindings = counterBindings
        self.codeBindings = codeBindings
        self.contactBindings = contactBindings
        self.encoderBindings = encoderBindings
        self.format = format
        self.output = output
        var perLine = Array(repeating: [ActionBinding](), count: lineCount)
        for binding in bindings where perLine.indices.contains(binding.line) { perLine[binding.line].append(binding) }
        self.bindingsOfLine = perLine
    }

    /// Events only.
    package var consumesEdges: Bool { false }

    /// A keypad's code: each action it would start (never the code itself).
    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) throws(SinkError) {
        for binding in codeBindings where binding.input == source.inputIndex {
            do { try show(actions[binding.action], on: "code", timeNs: code.timeNs) } catch { throw SinkError("cannot write the actions", error) }
            shownCount += 1
        }
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        switch output {
        case .event(let source, let event):
            let line = source.lineIndex
            for binding in bindingsOfLine[line] where binding.matches(event) {
                do { try show(actions[binding.action], on: event.kind.rawValue, timeNs: event.timeNs) } catch { throw SinkError("cannot write the actions", error) }
                shownCount += 1
            }
        case .contact(let source, let change):
            let line = source.lineIndex
            for binding in contactBindings where binding.line == line && binding.on.matches(change) {
                do { try show(actions[binding.action], on: change.isOn ? "on" : "off", timeNs: change.timeNs) } catch {
                    throw SinkError("cannot write the actions", error)
                }
                shownCount += 1
            }
        case .rotation(let source, let detent):
            for binding in encoderBindings where binding.input == source.inputIndex && binding.on.matches(detent.direction) {
                do { try show(actions[binding.action], on: detent.direction.rawValue, timeNs: detent.timeNs) } catch {
                    throw SinkError("cannot write the actions", error)
                }
                shownCount += 1
            }
        case .count, .rate:
            guard let report = output.counterReport else { break }
            for binding in counterBindings where binding.line == report.line && binding.on.matches(isPulse: report.pulse != nil) {
                do { try show(actions[binding.action], on: report.pulse == nil ? "rate" : "pulse", timeNs: report.timeNs) } catch {
                    throw SinkError("cannot write the actions", error)
                }
                shownCount += 1
            }
        default:
            break
        }
    }

    package func finish(atNs nowNs: Int64) throws(SinkError) {
        do { try output.flush() } catch { throw SinkError("cannot write the actions", error) }
    }

    /// One line for `action`, started by an event of kind (a contact's new state, an encoder's direction,
    /// a counter's `pulse` or `rate`) `on` at `timeNs`.
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

extension ActionBinding {
    /// Whether `event` starts this binding's action: its kind, and for clicks the count if one is set.
    func matches(_ event: ButtonEvent) -> Bool {
        on == event.kind && (count == nil || count == event.count)
    }
}
