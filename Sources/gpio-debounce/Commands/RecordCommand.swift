import ArgumentParser
import Assembly
import DebounceCore
import EventLoop
import EventOutput
import LineInput
import LinuxSys
import Pipeline
import Recording
import Settings
import GPIODBackend
import Simulation
import SystemPackage

/// `gpio-debounce record`: the raw edges of a line with the kernel's timestamps, for replay and analyze.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a line's raw edges with the kernel's timestamps, to the replay text format or VCD.",
        discussion: """
            Records until interrupted (Ctrl-C or SIGTERM) or for --duration. Nothing is debounced: \
            every edge the kernel reports is written, and events the kernel lost (its queue overflowed) \
            are marked: `# lost ...` comment lines in the text format, $comment blocks in VCD. Then run \
            `gpio-debounce analyze FILE` to pick a window, or `gpio-debounce replay FILE` to try one.

            """ + RecordModes.types.map { $0.help }.joined(separator: "\n"))

    @Argument(help: ArgumentHelp("The line: an offset or a name (not needed with --simulate).", valueName: "line"), transform: LineArgument.parse)
    var line: String?

    @Option(name: [.short, .long], help: "The chip: a path, name, number or label (default: the 40-pin header's chip, or wherever the named line is).")
    var chip: String?

    @Option(name: [.short, .long], help: "Bias: pull-up (the default), pull-down, disabled or as-is (libgpiod 2's gpiomon's names; 1.6's disable is accepted too).")
    var bias: BiasArgument = .init(.pullUp)

    @Option(name: [.short, .long], help: ArgumentHelp("Write here instead of standard output; a .vcd name writes VCD.", valueName: "file"))
    var output: String?

    @Option(help: "File format: text (t_ns,level lines) or vcd (default: from the file name, else text).")
    var format: RecordFormat?

    @Option(
        help: ArgumentHelp("Stop after this long (e.g. 60s).", valueName: "duration"),
        transform: { try DurationSyntax.parseNs($0) })
    var duration: Int64?

    @OptionGroup var simulation: SimulationOptions<RecordCommand>

    @OptionGroup var modes: RecordModes

    @Option(help: ArgumentHelp("With --simulate: lose this fraction of edges (0 to 1), as an overflowing kernel queue does.", valueName: "fraction"))
    var drop: Double = 0

    @OptionGroup var kernelQueue: KernelQueueOptions

    enum RecordFormat: String, ExpressibleByArgument, CaseIterable { case text, vcd }

    func validate() throws {
        try modes.chosen?.validate(with: self)
        if !simulation.simulate, line == nil, modes.chosen == nil { throw ValidationError("Say which line to record, e.g. `gpio-debounce record 17 -o button.csv` (or --simulate).") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be longer than 0.") }
        guard (0...1).contains(drop) else { throw ValidationError("--drop must be a fraction from 0 to 1, e.g. 0.05.") }
    }

    func run() throws {
        if simulation.simulate { SimulatedPinsNote.say(options: kernelQueue.given) }
        let signals = try signalDescriptor()
        // A real recording starts before the line is requested: every edge the kernel stamps after the
        // request is later than the initial level's time, however long the set-up below takes.
        let realStartNs = LoopClock.monotonic.nowNs
        let (assembly, name) = try input()
        let (recorder, target) = try recorder(of: assembly.source, name: name, startNs: simulation.simulate ? assembly.clock.nowNs : realStartNs)
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(plan: PipelinePlan(lines: [.raw]), sinks: [recorder], stop: .signals(signals), limits: LoopLimits(durationNs: duration))
        }
        try record(loop, by: recorder, of: name, into: target)
    }

    /// The lines recorded, and what the recording calls them: the simulated input of the mode chosen
    /// or button, or the pins named.
    private func input() throws -> (RunAssembly, name: String) {
        let (seed, presses, virtualTime) = (simulation.chosenSeed(), simulation.presses, simulation.virtualTime)
        let lineNames = try modes.chosen?.lineNames() ?? [line ?? "0"]
        if simulation.simulate, let mode = modes.chosen {
            let (lines, name) = mode.simulatedLines(seed: seed, presses: presses)
            return (RunAssembly.simulated(lines, names: lineNames, virtualTime: virtualTime), name)
        }
        if simulation.simulate {
            let lines = SimulatedLines(buttons: [BouncyButton(seed: seed, presses: presses)], dropProbability: drop, seed: seed ^ 0x5EED)
            return (RunAssembly.simulated(lines, names: ["0"], virtualTime: virtualTime), "simulated button (seed \(seed))")
        }
        let assembly = try opening { () throws(GPIOError) in
            try RunAssembly.pins(
                on: ChipInventory.read(), chip: chip, lines: lineNames, bias: bias.value, consumer: "gpio-debounce record",
                eventBufferSize: kernelQueue.eventBufferSize)
        }
        let places = assembly.places.compactMap { $0 }
        let name = places.isEmpty
            ? "the line"
            : "\(places[0].chip) line\(places.count > 1 ? "s" : "") \(places.map { String($0.offset) }.joined(separator: ","))"
        return (assembly, name)
    }

    /// The recorder of `source`'s lines from their initial levels, read now, into the output file.
    /// The file is opened once the lines are: a wrong chip, a busy line or a missing permission
    /// leaves an existing recording of that name untouched, and so does any failure before the
    /// recording completes.
    private func recorder(of source: any EdgeSource, name: String, startNs: Int64) throws -> (TraceRecorder, OutputTarget) {
        var initialLevels: [Level] = []
        do {
            for index in 0..<source.lineCount { initialLevels.append(try source.readLevel(line: index)) }
        } catch {
            throw failure(error.description, ExitStatus.ioError)
        }
        let target = try OutputTarget(path: output)
        let vcd = (format ?? ((output?.lowercased().hasSuffix(".vcd") ?? false) ? .vcd : .text)) == .vcd
        do {
            let recorder = try TraceRecorder(
                format: vcd ? .vcd : .text, output: OutputBuffer(fileDescriptor: target.descriptor), name: name,
                signals: modes.chosen?.signals ?? ["raw"], initialLevels: initialLevels, startNs: startNs)
            return (recorder, target)
        } catch {
            throw failure(error.description, ExitStatus.ioError)
        }
    }

    /// Runs `loop` to its end, says what was recorded, and puts the file in place; after a failure,
    /// the recording up to it is kept beside the file, which stays as it was.
    private func record(_ loop: EventLoop, by recorder: TraceRecorder, of name: String, into target: OutputTarget) throws {
        let summary = {
            printToStandardError(
                "recorded \(counted(recorder.writtenEdges, "edge")) of \(name)\(output.map { " to \($0)" } ?? ""); \(counted(recorder.lostEvents, "event")) lost by the kernel\(recorder.corrections > 0 ? ", \(counted(recorder.corrections, "level")) corrected by re-reading the line" : "")")
        }
        do {
            _ = try runToEnd(loop, summary: summary)
        } catch {
            if let file = target.file, recorder.writtenEdges > 0, (try? file.keep(as: file.destination + ".partial")) != nil {
                printToStandardError("gpio-debounce: the recording up to the failure is in \(file.destination).partial")
            }
            throw error
        }
        try target.commit()
    }
}

extension RecordCommand: SimulationHelp {
    static let simulate = ArgumentHelp(
        "Record a simulated bouncy button instead of a real pin (no hardware needed); \(RecordModes.types.map { $0.simulated }.joined(separator: ", ")).")
    static let seed = ArgumentHelp("Seed of the simulation (with --simulate). (default: 1)")
    static let presses = ArgumentHelp("How many times the simulated input is pressed or turned (with --simulate; default: until stopped).")
    static let defaultSeed: UInt64? = 1
    static let fewestPresses = 1
}
