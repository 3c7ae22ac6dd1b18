import ArgumentParser
import Assembly
import ConfigurationFile
import Daemon
import EventLoop
import Inputs
import LineInput
import Pipeline
import Recording
import DebounceCore
import EventOutput
import SystemPackage
import TraceInput

/// `gpio-debounce replay [FILE|-]`: a recorded trace through the same pipeline as a live line, in
/// virtual time: with the command line's debounce options, or a configuration file's input.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded trace of raw edges through the debouncer (or a configured input) and print the events.",
        discussion: """
            The trace is VCD (a .vcd file), or text, one `t_ns,level` line per edge (nanoseconds, then 0 or 1); the first line is \
            the initial level and emits nothing. Blank lines, lines starting with # and a `t_ns,level` \
            header are ignored. The edges go through the same stages as a live line's, in virtual time; \
            at the end of the trace, decisions still pending are made as if time ran on (a press still \
            down gets no hold it has not had). It streams: a trace of any length runs in bounded memory. \
            On a malformed line, the events decided before it are printed, then the error names the line, \
            and the exit code is 65.
            With --config, the trace goes through that file's input of one line (--input NAME, or its only \
            one): \(InputKinds.replayHelp.joined(separator: "; ")). Each action an event would start is printed \
            after the event; none is run.

            """ + ReplayModes.types.map { $0.help }.joined(separator: "\n"))

    @Argument(help: ArgumentHelp("The trace: t_ns,level text, or .vcd (e.g. from sigrok/PulseView); - (the default) reads text from standard input.", valueName: "file"))
    var file: String = "-"

    @Option(help: ArgumentHelp("VCD channel to read, by name or 0-based index (default: the only one).", valueName: "channel"))
    var channel: String?

    @Option(help: ArgumentHelp("A configuration file (as for `run`): replay through one of its inputs, actions printed, not run.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The configuration's input of one line to replay through (not needed when it has only one).", valueName: "name"))
    var input: String?

    /// `--button NAME`: what `--input` was called before, kept so that scripts written for it still run.
    @Option(name: .customLong("button"), help: .hidden)
    var button: String?

    @OptionGroup var modes: ReplayModes

    @OptionGroup var debounce: DebounceOptions

    @Option(help: "Output format: text (for people), json (one object per line) or vcd (raw and debounced signals side by side, for PulseView or GTKWave).")
    var format: ReplayFormat = .text

    enum ReplayFormat: String, ExpressibleByArgument, CaseIterable { case text, json, vcd }

    func validate() throws {
        if let stray = modes.all.lazy.filter({ !$0.isChosen }).compactMap(\.strayOptions).first { throw ValidationError(stray) }
        try modes.chosen?.validate(with: self)
        if input != nil, button != nil { throw ValidationError("--button is the old name of --input: give one of them.") }
        if config == nil, inputName != nil {
            throw ValidationError("\(input == nil ? "--button" : "--input") names an input of a configuration: add --config FILE.")
        }
        if config != nil, debounce.press != nil || debounce.release != nil || debounce.debounce != DebounceConfiguration.defaultStrategy
            || debounce.polarity != .activeLow
        {
            throw ValidationError("With --config, the input's own debounce and polarity apply: leave out --debounce, --press, --release and --active-high.")
        }
    }

    /// The configured input named (`--input`, or `--button`).
    var inputName: String? { input ?? button }

    func run() throws {
        if let mode = modes.chosen { return try mode.replay(with: self) }
        let input = try config.map { try Self.configuredInput(file: $0, name: inputName) }
        let source = try openTrace()
        let output = OutputBuffer(fileDescriptor: .standardOutput)
        let (initialLevel, plan) = (source.readLevel(line: 0), input?.pipeline ?? PipelinePlan(lines: [LinePlan(debounce: debounce.configuration)]))
        let sinks = try sinks(through: input, initialLevel: initialLevel, startNs: source.startNs, output: output)
        let loop = try makeLoop { () throws(LineError) in try RunAssembly.trace(source).loop(plan: plan, sinks: sinks, stop: .none) }
        try TraceFile.run(loop, output: output) { source.failure }
        if format == .text, let statistics = loop.pipeline.statistics(line: 0) {
            let startedPressed = plan.lines[0].debounce?.activeLevel.isPressed(initialLevel) ?? false
            printToStandardError(Summary.line(statistics, of: input?.kind ?? .presses, startedPressed: startedPressed))
        }
    }

    /// The trace `file` (its `channel` of a VCD) as the run's one line.
    private func openTrace() throws -> TraceEdgeSource {
        let trace = try TraceFile.openLine(file, channel: channel)
        do { return try TraceEdgeSource(trace: trace) } catch { throw failure(error.description, TraceFile.exitStatus(of: error)) }
    }

    /// What the replay writes: the raw and debounced signals (VCD), or the events with the configured
    /// input's fields and the actions it would start.
    private func sinks(through input: ReplayedInput?, initialLevel: Level, startNs: Int64, output: OutputBuffer) throws -> [any Sink] {
        let eventFormat: EventFormat = format == .json ? .json : .text
        do {
            if format == .vcd { return [try SignalComparisonSink(output: output, initialLevel: initialLevel, startNs: startNs)] }
        } catch {
            throw failure("cannot write the events: \(error.description)", ExitStatus.ioError)
        }
        return input?.sinks(format: eventFormat, output: output) ?? [EventPrinter(writer: EventWriter(format: eventFormat, output: output), lineFields: [.none])]
    }

    /// The configuration `file`'s input of one line `name` (or its only one). Loaded as
    /// `run --simulate` loads it: a bad file exits 65, a missing one 66, and a program its actions name
    /// that is missing here is a note, since a replay only shows the actions.
    private static func configuredInput(file: String, name: String?) throws -> ReplayedInput {
        let configuration = try loadConfiguration(file, programs: ProgramLookup.environment.notingMissing)
        noteMissingPrograms(configuration, "a replay runs no action, but run refuses to start (exit \(ExitStatus.badData.rawValue)) until it is there")
        do { return try ReplayedInput(configuration, name: name) } catch { throw failure(error.message(file: file), ExitStatus.usage) }
    }
}

/// One-line summaries of what a debouncer saw.
enum Summary {
    /// `startedPressed`: a button was down when the trace began, so that its first release follows
    /// no reported press and is not reported (nor counted here).
    static func line(_ statistics: DebounceStatistics, of input: ReplayedInput.Kind = .presses, startedPressed: Bool = false) -> String {
        let unreported = input == .presses && startedPressed && statistics.releases > 0 ? 1 : 0
        let edges = counted(statistics.edges, "raw edge")
        var text = switch input {
        case .presses: "\(counted(statistics.presses, "press", "presses")), \(counted(statistics.releases - unreported, "release")) from \(edges)"
        case .changes: "\(counted(statistics.presses, "change")) to on, \(statistics.releases) to off from \(edges) (debounced, before on_delay and off_delay)"
        case .pulses: "\(counted(statistics.presses, "pulse")) from \(edges)"
        }
        if unreported > 0 {
            text += "; the button was down when the trace began: its first release follows no press and is not reported"
        }
        if statistics.duplicateEdges > 0 {
            text += "; \(counted(statistics.duplicateEdges, "duplicate edge")) (edges lost in between)"
        }
        if statistics.clampedTimestamps > 0 {
            text += "; \(statistics.clampedTimestamps) timestamps went backwards (applied at the time already reached)"
        }
        if statistics.resyncCorrections > 0 {
            text += "; \(statistics.resyncCorrections) corrections after re-reading the line"
        }
        return text
    }
}
