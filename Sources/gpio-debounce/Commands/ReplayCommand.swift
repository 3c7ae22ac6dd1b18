import Actions
import ArgumentParser
import Assembly
import ConfigurationFile
import EventLoop
import LineInput
import Pipeline
import Recording
import Settings
import DebounceCore
import EventOutput
import SystemPackage
import TraceInput

/// `gpio-debounce replay [FILE|-]`: a recorded trace through the same pipeline as a live line, in
/// virtual time: with the command line's debounce options, or a configuration file's button.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded trace of raw edges through the debouncer (or a configured button) and print the events.",
        discussion: """
            The trace is VCD (a .vcd file), or text, one `t_ns,level` line per edge (nanoseconds, then 0 or 1); the first line is \
            the initial level and emits nothing. Blank lines, lines starting with # and a `t_ns,level` \
            header are ignored. The edges go through the same stages as a live line's, in virtual time; \
            at the end of the trace, decisions still pending are made as if time ran on (a press still \
            down gets no hold it has not had). It streams: a trace of any length runs in bounded memory. \
            On a malformed line, the events decided before it are printed, then the error names the line, \
            and the exit code is 65.
            With --config, the trace goes through that file's button (--button NAME, or its only one): \
            its debounce, gestures (hold, repeat, clicks) and group lockouts. Each action an event would \
            start is printed after the event; none is run. --button may also name a sensor (its states, \
            after their delays) or a counter (its pulses, counted from 0).
            With --encoder A,B, the trace holds a rotary encoder's two lines (VCD channels by name or \
            0-based index, or the text format's line column: t_ns,line,level lines, each line's first \
            data line its initial level) and one rotate event is printed per detent, as watch --encoder does.
            """)

    @Argument(help: ArgumentHelp("The trace: t_ns,level text, or .vcd (e.g. from sigrok/PulseView); - (the default) reads text from standard input.", valueName: "file"))
    var file: String = "-"

    @Option(help: ArgumentHelp("VCD channel to read, by name or 0-based index (default: the only one).", valueName: "channel"))
    var channel: String?

    @Option(help: ArgumentHelp("A configuration file (as for `run`): replay through one of its buttons, actions printed, not run.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The configuration's button, sensor or counter to replay through (not needed when it has one of them).", valueName: "name"))
    var button: String?

    @Option(help: ArgumentHelp("Replay a rotary encoder's lines A,B: VCD channels (names or 0-based indices, e.g. D0,D1) or the text trace's line numbers (e.g. 0,1).", valueName: "A,B"))
    var encoder: String?

    @OptionGroup var encoderOptions: EncoderOptions

    @OptionGroup var debounce: DebounceOptions

    @Option(help: "Output format: text (for people), json (one object per line) or vcd (raw and debounced signals side by side, for PulseView or GTKWave).")
    var format: ReplayFormat = .text

    enum ReplayFormat: String, ExpressibleByArgument, CaseIterable { case text, json, vcd }

    func validate() throws {
        if encoder != nil { try validateEncoder() }
        if config == nil, button != nil { throw ValidationError("--button names a button of a configuration: add --config FILE.") }
        if config != nil, debounce.press != nil || debounce.release != nil || debounce.debounce != DebounceConfiguration.defaultStrategy
            || debounce.polarity != .activeLow
        {
            throw ValidationError("With --config, the button's own debounce and polarity apply: leave out --debounce, --press, --release and --active-high.")
        }
    }

    func run() throws {
        if let encoder { return try replayEncoder(WatchCommand.encoderParts(encoder)) }
        let stages = try config.map { try ConfiguredButton(file: $0, name: button) }
        let trace = try TraceFile.openLine(file, channel: channel)
        let source: TraceEdgeSource
        do { source = try TraceEdgeSource(trace: trace) } catch { throw failure(error.description, TraceFile.exitStatus(of: error)) }
        let assembly = RunAssembly.trace(source)
        let output = OutputBuffer(fileDescriptor: .standardOutput)
        let initialLevel = source.readLevel(line: 0)
        var sinks: [any Sink]
        do {
            sinks = format == .vcd
                ? [try SignalComparisonSink(output: output, initialLevel: initialLevel, startNs: source.startNs)]
                : [
                    EventPrinter(
                        writer: EventWriter(format: format == .json ? .json : .text, output: output), lineFields: [stages?.fields ?? .none],
                        sensorLines: stages?.isSensor == true ? [0] : [], perUnit: stages?.perUnit.map { [0: $0] } ?? [:],
                        rateUnits: stages?.rateUnit.map { [0: $0] } ?? [:])
                ]
        } catch {
            throw failure("cannot write the events: \(error.description)", ExitStatus.ioError)
        }
        if let stages, format != .vcd {
            sinks.append(
                ActionPreview(
                    actions: stages.plan.actions, bindings: stages.bindings, contactBindings: stages.contactBindings,
                    counterBindings: stages.counterBindings, lineCount: 1,
                    format: format == .json ? .json : .text, output: output))
        }
        let plan = stages?.linePlan ?? LinePlan(debounce: debounce.configuration)
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(plan: PipelinePlan(lines: [plan], groups: stages?.plan.groups ?? []), sinks: sinks, stop: .none)
        }
        try TraceFile.run(loop, output: output) { source.failure }
        if format == .text, let statistics = loop.pipeline.statistics(line: 0) {
            printToStandardError(
                Summary.line(statistics, of: stages?.summarized ?? .button, startedPressed: plan.debounce?.activeLevel.isPressed(initialLevel) ?? false))
        }
    }
}

/// The configuration file's button, sensor or counter that `replay --config` runs a trace through:
/// its stages, with its line as line 0, and its actions.
private struct ConfiguredButton {
    var plan: DaemonPlan
    var linePlan: LinePlan
    var bindings: [ActionBinding]
    /// A sensor's actions, its line as line 0.
    var contactBindings: [ContactActionBinding]
    /// A counter's actions, its line as line 0.
    var counterBindings: [CounterActionBinding]
    var fields: EventFields
    /// Whether it is a sensor: its state at the start is printed.
    var isSensor: Bool
    /// For a counter, its pulses per unit.
    var perUnit: Double?
    /// For a counter, its rate's unit (W, L/min, m³/h, pulses/min).
    var rateUnit: String?
    /// Which kind of input it is, for the words of the summary.
    var summarized: Summary.Input

    /// Loads `file` (as `run --simulate` does: a bad file exits 65, a missing one 66, a program its
    /// actions name that is missing here is a note, since a replay only shows the actions) and picks the
    /// button, sensor or counter `name`, or the only one of them.
    init(file: String, name: String?) throws {
        let configuration = try loadConfiguration(file, programs: ProgramLookup.environment.notingMissing)
        noteMissingPrograms(configuration, "a replay runs no action, but run refuses to start (exit \(ExitStatus.badData.rawValue)) until it is there")
        let roster = configuration.roster
        // Every input a trace of one line can drive (not an encoder: it has two), with its line.
        let owners = roster.inputs.filter { input in
            switch input.kind {
            case .button, .sensor, .counter: true
            case .encoder, .keypad: false
            }
        }.map { (name: $0.name, line: $0.lines[0], kind: $0.kind) }
        let names = owners.map(\.name).joined(separator: ", ")
        let owner: (name: String, line: LineID, kind: Roster.Input.Kind)
        if let name {
            guard let found = owners.first(where: { $0.name == name }) else {
                throw failure("\(file) has no button, sensor or counter named \"\(name)\"; it has: \(names)", ExitStatus.usage)
            }
            owner = found
        } else {
            guard owners.count == 1, let only = owners.first else {
                throw failure("\(file) has \(owners.count) buttons, sensors and counters: say which with --button (\(names))", ExitStatus.usage)
            }
            owner = only
        }
        plan = DaemonPlan(configuration)
        linePlan = plan.plans[owner.line.index]
        bindings = plan.bindings.filter { $0.line == owner.line.index }.map { ActionBinding(line: 0, on: $0.on, count: $0.count, action: $0.action) }
        contactBindings = plan.contactActionBindings.filter { $0.line == owner.line.index }.map { ContactActionBinding(line: 0, on: $0.on, action: $0.action) }
        counterBindings = plan.counterActionBindings.filter { $0.line == owner.line.index }.map { CounterActionBinding(line: 0, on: $0.on, action: $0.action) }
        (isSensor, perUnit, rateUnit) = (false, nil, nil)
        switch owner.kind {
        case .button, .encoder, .keypad:
            fields = EventFields([.text("button", owner.name)])
            summarized = .button
        case .sensor:
            fields = EventFields([.text("sensor", owner.name)])
            isSensor = true
            summarized = .sensor
        case .counter(let counter):
            fields = EventFields([.text("counter", owner.name)])
            summarized = .counter
            perUnit = counter.perUnit
            rateUnit = counter.rateUnit
        }
    }
}

/// One-line summaries of what a debouncer saw.
enum Summary {
    /// What the replayed line is, for the words of its summary.
    enum Input {
        /// A button: presses and releases.
        case button
        /// A sensor: its contact's debounced changes to on and to off (before `on_delay` and `off_delay`).
        case sensor
        /// A counter: its pulses.
        case counter
    }

    /// `startedPressed`: a button was down when the trace began, so that its first release follows
    /// no reported press and is not reported (nor counted here).
    static func line(_ statistics: DebounceStatistics, of input: Input = .button, startedPressed: Bool = false) -> String {
        let unreported = input == .button && startedPressed && statistics.releases > 0 ? 1 : 0
        let edges = counted(statistics.edges, "raw edge")
        var text = switch input {
        case .button: "\(counted(statistics.presses, "press", "presses")), \(counted(statistics.releases - unreported, "release")) from \(edges)"
        case .sensor: "\(counted(statistics.presses, "change")) to on, \(statistics.releases) to off from \(edges) (debounced, before on_delay and off_delay)"
        case .counter: "\(counted(statistics.presses, "pulse")) from \(edges)"
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
