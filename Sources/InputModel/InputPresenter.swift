import DebounceCore
import EventOutput
import Pipeline

/// An input as a sink that shows inputs outside sees it: its description, what it shows at the start,
/// and what each of its outputs changes. One per kind (`Sources/Inputs/<Kind>/`); the sinks hold
/// `any InputPresenter` and find it by `OutputSource.input`.
package protocol InputPresenter: Sendable {
    var description: InputDescription { get }

    /// What the printer writes after its lines' events and its codes (`run`'s output).
    var printed: PrintedFields { get }

    /// What it shows when the run starts, from each run line's state then (`Sink.start`'s
    /// `linesPressed`: nil for a line that is not debounced or not of this run).
    func start(linesPressed: [Bool?]) -> [InputUpdate]

    /// What `output`, one of this input's, changes; nothing for an output it does not show.
    func updates(for output: PipelineOutput) -> [InputUpdate]

    /// What a code entered on this input (a matrix's keys) changes; nothing by default.
    func updates(for code: EnteredCode) -> [InputUpdate]

    /// How `output`, one of this input's, starts its actions (`InputActionBinding`); nil for an
    /// output that starts none.
    func actionOccasion(for output: PipelineOutput) -> ActionOccasion?

    /// What the commands `output` starts get in their environment (`GPIO_EVENT=press`, ...), sorted
    /// by name; asked only for an output with an occasion.
    func actionEnvironment(for output: PipelineOutput) -> [String]

    /// How a code entered on this input starts its actions; nil by default.
    func actionOccasion(for code: EnteredCode) -> ActionOccasion?

    /// What the commands a code starts get in their environment (the one place a code goes).
    func actionEnvironment(for code: EnteredCode) -> [String]

    /// What a code's line carries, for the programs the daemon shares its events with (the events
    /// socket), beyond the length and time `run` prints: the code itself where the input publishes it
    /// (`publish_code: true`); nothing by default.
    func sharedFields(for code: EnteredCode) -> [(String, JSONValue)]

    /// The value the control socket's `reset` sets when it names none (a total: 0; an encoder's
    /// position: its `reset_to:`); nil for an input with no value to set. Nil by default.
    var resetValue: Int64? { get }

    /// How the printer writes its outputs other than its lines' debounced events, and its state at
    /// the start; nil (the default): it has none.
    var printer: (any InputPrinter)? { get }

    /// The line (without its newline) the printer writes at the start of a run at `nowNs` when the
    /// input starts from the value the state directory kept (read at this start, not carried over by
    /// a reload): an encoder's `{"event":"position",…,"restored":true}`; nil (the default): nothing.
    func printedRestoredStart(atNs nowNs: Int64, format: EventFormat) -> [UInt8]?
}

extension InputPresenter {
    /// Whether run line `line` is in `linesPressed`, with its state.
    package static func state(of line: Int, in linesPressed: [Bool?]) -> Bool? {
        linesPressed.indices.contains(line) ? linesPressed[line] : nil
    }

    package func updates(for code: EnteredCode) -> [InputUpdate] { [] }

    package func actionOccasion(for code: EnteredCode) -> ActionOccasion? { nil }

    package func actionEnvironment(for code: EnteredCode) -> [String] { [] }

    package var printer: (any InputPrinter)? { nil }

    package var resetValue: Int64? { nil }

    package func sharedFields(for code: EnteredCode) -> [(String, JSONValue)] { [] }

    package func printedRestoredStart(atNs nowNs: Int64, format: EventFormat) -> [UInt8]? { nil }

    /// The input's name (`description.name`).
    package var name: String { description.name }
}
