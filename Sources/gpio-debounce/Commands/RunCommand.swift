import ArgumentParser
import Assembly
import ConfigurationFile
import Daemon
import DebounceCore
import EventLoop
import Inputs
import LineInput
import LinuxSys
import Pipeline
import Logging
import MQTT
import Simulation

/// `gpio-debounce run --config FILE`: the daemon.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the \(InputKinds.sectionsInWords) of a configuration file: debounced events, gestures, codes, positions and actions, in one process.",
        discussion: """
            One ppoll loop over every input's lines (one request per chip), sleeping until the earliest \
            deadline of any input: nothing runs while the inputs are idle (a key matrix is scanned only while a key is down). Events are printed like \
            `watch` prints them (plus the input's name); actions run their commands, each in a process group of \
            its own, without blocking the loop. SIGINT or SIGTERM stops taking events, lets running actions \
            finish for up to --shutdown-grace, kills the process groups of what still runs, saves the \
            values the inputs keep (in --state-dir), releases the lines and exits 0.
            SIGHUP (systemctl reload gpio-debounce) reads the configuration file again and checks it as a \
            start does: a file that does not load or check is refused, with its message in the log, and the \
            running configuration goes on. Otherwise inputs whose settings did not change go on with their \
            state (what is held stays held, totals and positions go on), added \
            inputs are requested and removed ones released and taken out of Home Assistant's discovery; \
            MQTT stays connected when its section did not change, and so do the ESPHome API's clients \
            (api:), asked to list the entities again when inputs were added or removed. With --simulate the \
            added inputs get simulated lines, so a reload can be tried without hardware; a simulation's \
            ESPHome API listens on a port of its own (or --api-port), as the device <name>-simulation.
            ESPHome API (api:): the device is advertised over mDNS as <name>._esphomelib._tcp through \
            avahi-daemon's D-Bus API, so Home Assistant lists it under Discovered; without avahi-daemon the \
            log says so and how to add the device by hand, and it is advertised once avahi-daemon starts.
            Health: at the stop, and on SIGUSR1 (`systemctl kill -s USR1 gpio-debounce`) while the run goes \
            on, one log line per input says its edges, the bounces absorbed, the glitches rejected (pulses \
            too short to be a press), the noise bursts (bursts of edges that made no press) and the events \
            the kernel lost. With MQTT or the ESPHome API they are also Home Assistant diagnostic entities.
            """)

    @Option(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var config: String

    @OptionGroup var kernelQueue: KernelQueueOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Log level on stderr.")
    var logLevel: LogLevelArgument = .init(.info)

    @OptionGroup var simulation: SimulationOptions<RunCommand>

    @Flag(help: "With --simulate: run the actions' commands and type the keys, as a real run does. Without it a simulation shows them (\"would run ...\", \"would type ...\") and runs nothing.")
    var runActions = false

    @Option(
        help: ArgumentHelp(
            "The directory where inputs keep their values across restarts (\(InputKinds.stateFilesInWords)). Default: $STATE_DIRECTORY (systemd's StateDirectory=), /var/lib/gpio-debounce as root, else $XDG_STATE_HOME/gpio-debounce or ~/.local/state/gpio-debounce; with --simulate, a new temporary directory removed at the stop (a simulation never changes the values a real run keeps).",
            valueName: "dir"))
    var stateDir: String?

    @Flag(
        help: ArgumentHelp(
            "When a configured chip is not there (an expander not plugged in yet, a driver still loading), log it and wait for it to appear in /dev, then start, instead of exiting 66. SIGTERM ends the wait. The systemd unit runs with it."))
    var waitForChips = false

    @Option(
        help: ArgumentHelp(
            "Listen for other programs (gpio-debounce events, status, docs/socket.md) at this path instead of the configuration's socket: path (default /run/gpio-debounce/events.sock; with --simulate, a new temporary directory's, logged at the start).",
            valueName: "path"))
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "The port the ESPHome API (api:) listens on instead of the configuration's port: (default 6053; with --simulate, a free one, logged at the start).",
            valueName: "port"))
    var apiPort: UInt16?

    @Flag(help: "Remove this configuration's Home Assistant discovery from its MQTT broker (empty retained messages), then exit.")
    var removeDiscovery = false

    @Option(name: [.short, .customLong("num-events")], help: "Exit after this many events (gestures included); their actions still run.", transform: CountArgument.parse)
    var numEvents: Int?

    @Option(
        help: ArgumentHelp("On SIGINT or SIGTERM (or another stop), how long running actions may finish before their process groups are killed.", valueName: "duration"),
        transform: { try DurationSyntax.parseNs($0) })
    var shutdownGrace: Int64 = LoopLimits.defaultShutdownGraceNs

    func validate() throws {
        if shutdownGrace < 0 { throw ValidationError("--shutdown-grace cannot be negative.") }
        if runActions, !simulation.simulate { throw ValidationError("--run-actions goes with --simulate: a real run always runs its actions.") }
        if removeDiscovery, numEvents != nil || simulation.virtualTime {
            throw ValidationError("--remove-discovery takes no --num-events: it only talks to the broker.")
        }
    }

    /// How `run:` programs are looked up: a simulation that runs no action notes a missing one (its
    /// actions are shown, not run); a real run, and `--run-actions`, refuse it.
    private var programs: ProgramLookup {
        simulation.simulate && !runActions ? ProgramLookup.environment.notingMissing : .environment
    }

    /// The configuration file, with a note for each program a simulation would not find.
    private func load() throws -> ServiceConfiguration {
        let configuration = try loadConfiguration(config, programs: programs)
        noteProgramsMissing(in: configuration)
        return configuration
    }

    private func noteProgramsMissing(in configuration: ServiceConfiguration) {
        noteMissingPrograms(configuration, "a simulation runs no action, but run without --simulate refuses to start (exit \(ExitStatus.badData.rawValue)) until it is there")
    }

    func run() throws {
        let configuration = try load()
        let logger = logLevel.bootstrap()
        if simulation.simulate {
            SimulatedPinsNote.say(options: kernelQueue.given)
            SimulatedPinsNote.say(configuration)
        }
        if removeDiscovery { return try removeDiscovery(configuration, signals: try signalDescriptor(), logger: logger) }
        let signals = try signalDescriptor(requests: [.reload, .report])
        var daemon = try start(configuration, signals: signals, logger: logger)
        // No reference to a run's loop is kept across a reload: its lines are released before the next run requests them.
        while let stop = try daemon.map({ try runToEnd($0.loop) }) {
            guard stop == .reloadRequested else { return daemon?.logSummary(of: stop) ?? () }
            try reload(&daemon, logger: logger)
        }
    }

    /// The daemon of `configuration`; with `--wait-for-chips` on real pins, once its chips are there
    /// (nil: stopped while waiting).
    private func start(_ configuration: ServiceConfiguration, signals: SignalDescriptor, logger: Logger) throws -> DaemonAssembly? {
        let assemble = { () throws(DaemonFailure) in
            try DaemonAssembly(configuration, choices: choices, stop: .signals(signals), logger: logger)
        }
        guard waitForChips, !simulation.simulate else { return try assembling(assemble) }
        let arrival = ChipArrival(signals: signals) { notice in
            if case .waiting = notice { logger.warning("\(notice.text)") } else { logger.info("\(notice.text)") }
        }
        return try arrival.assembling(assemble)
    }

    /// SIGHUP: reads the file again and reloads the daemon with it (`DaemonAssembly.reload`); a file that
    /// does not load is refused, the daemon going on as it was.
    private func reload(_ daemon: inout DaemonAssembly?, logger: Logger) throws {
        logger.notice("SIGHUP: reading \(config) again")
        let next: ServiceConfiguration
        do throws(ConfigurationFileFailure) {
            next = try readConfiguration(config, programs: programs)
        } catch {
            printToStandardError("gpio-debounce: error: \(error.message)")
            logger.error("reload refused, going on with the running configuration: \(config) does not load (the error above)")
            daemon?.eventSocket?.reloadRefused(error.message)
            return
        }
        noteProgramsMissing(in: next)
        try assembling { () throws(DaemonFailure) in try DaemonAssembly.reload(&daemon, to: next) }
    }

    /// The run's choices, from its options.
    private var choices: DaemonChoices {
        let simulated = DaemonChoices.Simulation(
            seed: simulation.chosenSeed(), presses: simulation.presses, virtualTime: simulation.virtualTime, runsActions: runActions)
        return DaemonChoices(
            simulation: simulation.simulate ? simulated : nil, eventBufferSize: kernelQueue.eventBufferSize, stateDirectory: stateDir,
            limits: LoopLimits(maximumEvents: numEvents, shutdownGraceNs: shutdownGrace), format: output.format == .json ? .json : .text,
            softwareVersion: Version.number, eventSocket: socket.map { .path($0) } ?? .configured, apiPort: apiPort)
    }

    /// `--remove-discovery`: a loop with no lines and the MQTT sink clearing the discovery messages (empty
    /// retained payloads), which ends once the broker has acknowledged them, or after the grace period.
    /// With `--simulate`, the simulation's own discovery (`MQTTSettings.simulation`).
    private func removeDiscovery(_ configuration: ServiceConfiguration, signals: SignalDescriptor, logger: Logger) throws {
        try checking { () throws(MachineCheck.Failure) in try MachineCheck.readConfiguredFiles(configuration) }
        guard let mqtt = DaemonAssembly.mqttSettings(configuration, choices: choices) else {
            throw failure("--remove-discovery needs an `mqtt:` section in \(config)", ExitStatus.usage)
        }
        let sink: MQTTSink
        do {
            sink = try configuration.mqttSink(mqtt, mode: .removeDiscovery, softwareVersion: Version.number, logger: logger)
        } catch {
            throw failure(error.description, ExitStatus.badData)
        }
        let noLines = RunAssembly.simulated(SimulatedLines(initialLevels: [], scripts: []), names: [], virtualTime: false)
        let loop = try makeLoop { () throws(LineError) in
            try noLines.loop(plan: PipelinePlan(lines: []), sinks: [sink], stop: .signals(signals), limits: LoopLimits(shutdownGraceNs: shutdownGrace))
        }
        _ = try runToEnd(loop)
        guard sink.disconnectedCleanly else {
            let reason = sink.lastError?.description ?? "the broker did not acknowledge them within --shutdown-grace"
            throw failure("could not remove the discovery messages from \(mqtt.url): \(reason)", ExitStatus.temporaryFailure)
        }
        logger.info("mqtt: removed \(sink.statistics.discoveryMessages) discovery messages")
    }
}

extension RunCommand: SimulationHelp {
    static let simulate = ArgumentHelp(
        "Drive every line from a simulation instead of real pins (no hardware needed): \(InputKinds.simulationHelp), each reported as its configured line (GPIO27 as 27).")
    static let seed = ArgumentHelp("Seed of the simulated inputs (with --simulate). (default: 1)")
    static let presses = ArgumentHelp(
        "How many times each simulated input is pressed or moved, a double click counting 2 (with --simulate; default: forever; 0 starts, publishes and stops).")
    static let defaultSeed: UInt64? = 1
    static let fewestPresses = 0
}

/// `--log-level`.
struct LogLevelArgument: ExpressibleByArgument, CustomStringConvertible {
    var value: Logger.Level
    /// How `--help` shows the default: the level's name.
    var description: String { value.rawValue }
    init(_ value: Logger.Level) { self.value = value }
    init?(argument: String) {
        guard let value = Logger.Level(rawValue: argument) else { return nil }
        self.value = value
    }
    static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }

    /// Makes this level the process's logging (`LoggingSystem.bootstrap`, once per process: on
    /// standard error), and returns the program's logger.
    func bootstrap() -> Logger {
        let level = value
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "gpio-debounce")
    }
}
