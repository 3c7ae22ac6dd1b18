#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import Assembly
import ConfigurationFile
import DebounceCore
import EventLoop
import EventOutput
import LinuxSys
import MQTT
import Pipeline
import Sinks
import GPIODBackend
import Simulation
import Logging
import SystemPackage

/// `gpio-debounce run --config FILE`: the daemon.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the buttons, encoders, sensors and counters of a configuration file: debounced events, gestures and actions, in one process.",
        discussion: """
            One ppoll loop over every button's line (one request per chip), sleeping until the earliest \
            deadline of any button: nothing runs while the buttons are idle. Events are printed like \
            `watch` prints them (plus "button"); actions run their commands, each in a process group of \
            its own, without blocking the loop. SIGINT or SIGTERM stops taking events, lets running actions \
            finish for up to --shutdown-grace, kills the process groups of what still runs, saves the \
            counters' totals (in --state-dir), releases the lines and exits 0.
            """)

    @Option(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var config: String

    @OptionGroup var kernelQueue: KernelQueueOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Log level on stderr.")
    var logLevel: LogLevelArgument = .init(.info)

    @Flag(help: "Drive every line from a simulation instead of real pins (no hardware needed): a bouncy button per button, a turned knob per encoder, a door opened and closed per sensor, an S0 meter per counter, each reported as its configured line (GPIO27 as 27).")
    var simulate = false

    @Flag(help: "With --simulate: run the actions' commands and type the keys, as a real run does. Without it a simulation shows them (\"would run ...\", \"would type ...\") and runs nothing.")
    var runActions = false

    @Option(help: "Seed of the simulated buttons (with --simulate).")
    var seed: UInt64 = 1

    @Option(
        help: "Presses of each simulated button, a double click counting 2 (with --simulate; default: forever; 0 starts, publishes and stops).",
        transform: { try CountArgument.parse($0, from: 0) })
    var presses: Int?

    @Flag(help: .hidden)
    var virtualTime = false

    @Option(
        help: ArgumentHelp(
            "Where the counters' totals are kept (the file `counters`), across restarts. Default: $STATE_DIRECTORY (systemd's StateDirectory=), /var/lib/gpio-debounce as root, else $XDG_STATE_HOME/gpio-debounce or ~/.local/state/gpio-debounce; with --simulate, a new temporary directory removed at the stop (a simulation never counts into real meters' totals).",
            valueName: "dir"))
    var stateDir: String?

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
        if runActions, !simulate { throw ValidationError("--run-actions goes with --simulate: a real run always runs its actions.") }
        if removeDiscovery, numEvents != nil || virtualTime { throw ValidationError("--remove-discovery takes no --num-events: it only talks to the broker.") }
    }

    func run() throws {
        let configuration = try loadConfiguration(config)
        try checking { () throws(MachineCheck.Failure) in try MachineCheck.readMQTTFiles(configuration) }
        let level = logLevel.value
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "gpio-debounce")
        let signals = try signalDescriptor()
        // A simulation publishes under an identity of its own, never the live daemon's (MQTTSettings.simulation).
        let mqttSettings = simulate ? configuration.mqtt?.simulation : configuration.mqtt
        if removeDiscovery {
            return try removeDiscovery(configuration, mqtt: mqttSettings, signals: signals, logger: logger)
        }
        if configuration.mqtt != nil, virtualTime {
            throw failure("MQTT needs real time (its keepalive and reconnects count on the clock): leave out the mqtt: section for a virtual-time run", ExitStatus.usage)
        }
        let assembly = try simulate ? simulatedButtons(configuration) : configuredPins(configuration, logger: logger)
        let places = assembly.places.compactMap { $0 }
        let simulationState = try simulationStateDirectory(configuration, logger: logger)
        defer { simulationState?.remove() }
        let counterStore = try makeCounterStore(configuration, directory: simulationState?.path, logger: logger)
        let plan = DaemonPlan(configuration, counterTotals: counterStore?.initialTotals ?? [])
        var sinks = try eventSinks(configuration, plan: plan, places: places, logger: logger)
        if let counterStore { sinks.append(counterStore) }
        if let mqtt = mqttSettings {
            sinks.append(try configuration.mqttSink(mqtt, places: places, counterTotals: counterStore?.initialTotals ?? [], logger: logger))
            logger.info("mqtt: publishing to \(mqtt.url) under \(mqtt.base)\(simulate ? " as \(mqtt.clientID), a device of its own" : "") (libmosquitto \(MQTTSink.libraryVersion))")
        }
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(
                plans: plan.plans, groups: plan.groups, encoders: plan.encoders, sinks: sinks, stop: .signals(signals),
                limits: LoopLimits(maximumEvents: numEvents, shutdownGraceNs: shutdownGrace))
        }
        let stop = try runToEnd(loop)
        if let counterStore {
            logger.info("counters: \(counted(counterStore.writes, "write")) of \(counterStore.path)\(counterStore.failedWrites > 0 ? ", \(counted(counterStore.failedWrites, "failed write"))" : "")")
        }
        logger.info("stopped (\(Self.describe(stop))) after \(counted(loop.reportedEvents, "event")) and \(counted(loop.wakeups, "wakeup"))")
    }

    /// What the run's events go to: the printer, then the action runner and the virtual keyboard, or in
    /// a simulation (without `--run-actions`) what they would do, shown after each event on the
    /// printer's buffer (`ActionPreview`, `KeyPreview`).
    private func eventSinks(_ configuration: ServiceConfiguration, plan: DaemonPlan, places: [RunAssembly.LinePlace], logger: Logger) throws -> [any Sink] {
        let roster = configuration.roster
        let out = OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0)
        var sinks: [any Sink] = [
            output.printer(
                lineFields: roster.lineFields(places), encoderFields: roster.encoderFields(places), sensorLines: Set(roster.sensors.map(\.line.index)),
                perUnit: Dictionary(uniqueKeysWithValues: roster.counters.map { ($0.line.index, $0.settings.perUnit) }), output: out)
        ]
        let showsOutputs = simulate && !runActions
        if showsOutputs {
            sinks.append(
                ActionPreview(
                    actions: plan.actions, bindings: plan.bindings, contactBindings: plan.contactActionBindings, encoderBindings: plan.encoderActionBindings,
                    lineCount: places.count, format: output.format == .json ? .json : .text, output: out))
            if !plan.actions.isEmpty || !plan.keyBindings.isEmpty || !plan.encoderKeyBindings.isEmpty {
                logger.notice("a simulation shows the actions and keys it would start, and runs none (--run-actions runs them)")
            }
        } else {
            sinks.append(
                ActionRunner(
                    actions: plan.actions, bindings: plan.bindings, names: roster.actionNames(places), encoderBindings: plan.encoderActionBindings,
                    encoderNames: configuration.encoders.map(\.name), contactBindings: plan.contactActionBindings, logger: logger))
        }
        if let keyboard = try makeKeyboard(plan: plan, settings: configuration.keyboard, lineCount: places.count, preview: showsOutputs ? out : nil, logger: logger) {
            sinks.append(keyboard)
        }
        return sinks
    }

    /// `--remove-discovery`: a loop with no lines and the MQTT sink clearing the discovery messages (empty
    /// retained payloads), which ends once the broker has acknowledged them, or after the grace period.
    /// With `--simulate`, the simulation's own discovery (`MQTTSettings.simulation`).
    private func removeDiscovery(_ configuration: ServiceConfiguration, mqtt: MQTTSettings?, signals: SignalDescriptor, logger: Logger) throws {
        guard let mqtt else {
            throw failure("--remove-discovery needs an `mqtt:` section in \(config)", ExitStatus.usage)
        }
        let sink = try configuration.mqttSink(mqtt, places: nil, mode: .removeDiscovery, logger: logger)
        let noLines = RunAssembly.simulated(SimulatedLines(initialLevels: [], scripts: []), names: [], virtualTime: false)
        let loop = try makeLoop { () throws(LineError) in
            try noLines.loop(plans: [], sinks: [sink], stop: .signals(signals), limits: LoopLimits(shutdownGraceNs: shutdownGrace))
        }
        _ = try runToEnd(loop)
        guard sink.disconnectedCleanly else {
            let reason = sink.lastError?.description ?? "the broker did not acknowledge them within --shutdown-grace"
            throw failure("could not remove the discovery messages from \(mqtt.url): \(reason)", ExitStatus.temporaryFailure)
        }
        logger.info("mqtt: removed \(sink.statistics.discoveryMessages) discovery messages")
    }

    /// `--simulate`: a simulated bouncy button for each configured button (making the gestures the
    /// button recognizes), a simulated encoder for each encoder, a door's reed contact opened and closed
    /// for each sensor and an S0 meter's pulses for each counter (each seeded from `--seed`), reported as
    /// their configured lines.
    private func simulatedButtons(_ configuration: ServiceConfiguration) -> RunAssembly {
        let buttons = configuration.buttons.enumerated().map { index, button in
            let clickCounts = button.actions.compactMap(\.count) + button.keys.compactMap(\.count)
            return BouncyButton(
                seed: seed &+ UInt64(index), activeLevel: button.debounce.activeLevel, presses: presses,
                gestures: SimulatedGestures(button.gestures, debounce: button.debounce, clickCounts: clickCounts))
        }
        let encoders = configuration.encoders.indices.map { BouncyEncoder(seed: seed &+ 1_000 &+ UInt64($0), gestures: presses) }
        let sensors = configuration.sensors.enumerated().map { index, sensor in
            BouncyButton(profile: .reedContact, seed: seed &+ 2_000 &+ UInt64(index), activeLevel: sensor.debounce.activeLevel, presses: presses)
        }
        let counters = configuration.counters.enumerated().map { index, counter in
            BouncyButton(profile: .meterPulse, seed: seed &+ 3_000 &+ UInt64(index), activeLevel: counter.debounce.activeLevel, presses: presses)
        }
        return RunAssembly.simulated(
            SimulatedLines(buttons: buttons, encoders: encoders, contacts: sensors + counters), names: configuration.roster.lines.map(\.settings.line),
            virtualTime: virtualTime)
    }

    /// The configured buttons' real lines, found on this machine (`MachineCheck`, as `check` finds them).
    private func configuredPins(_ configuration: ServiceConfiguration, logger: Logger) throws -> RunAssembly {
        if configuration.buttons.contains(where: { $0.chip == nil && Int($0.line) != nil }) {
            logger.info("offsets without chip: mean \(LineLocator.headerChip())")
        }
        let located = try checking { () throws(MachineCheck.Failure) in try MachineCheck.locateLinesOnThisMachine(configuration) }
        let selections = zip(configuration.roster.lines, located).map { wanted, line in
            LineSelection(chip: line.place, offset: line.offset, bias: wanted.settings.bias, kernelDebounceNs: wanted.settings.kernelDebounceNs)
        }
        let assembly = try opening { () throws(GPIOError) in
            try RunAssembly.pins(selections, consumer: "gpio-debounce", eventBufferSize: kernelQueue.eventBufferSize)
        }
        let what = [
            (configuration.buttons.count, "button"), (configuration.encoders.count, "encoder"), (configuration.sensors.count, "sensor"),
            (configuration.counters.count, "counter"),
        ].filter { $0.0 > 0 }.map { counted($0.0, $0.1) }
        logger.info("watching \(what.joined(separator: ", ")) (libgpiod \(GPIODLines.libgpiodVersion))")
        return assembly
    }

    /// A simulation's own state directory (`SimulationStateDirectory`), when it has counters and no
    /// `--state-dir`: the totals of real meters are never read or written by a simulation.
    private func simulationStateDirectory(_ configuration: ServiceConfiguration, logger: Logger) throws -> SimulationStateDirectory? {
        guard simulate, stateDir == nil, !configuration.counters.isEmpty else { return nil }
        do throws(CounterStateError) {
            let directory = try SimulationStateDirectory()
            logger.info("counters: a simulation counts from 0 in \(directory.path), removed at the stop (--state-dir DIR keeps its totals)")
            return directory
        } catch {
            throw failure(error.description, ExitStatus.of(error))
        }
    }

    /// The store of the counters' totals, if the configuration has counters: locks the state directory
    /// (`directory`, else `--state-dir`, else `StateDirectory.defaultPath()`) and reads the totals kept there.
    private func makeCounterStore(_ configuration: ServiceConfiguration, directory: String?, logger: Logger) throws -> CounterStore? {
        guard !configuration.counters.isEmpty else { return nil }
        do throws(CounterStateError) {
            let path: String
            if let chosen = directory ?? stateDir { path = chosen } else { path = try StateDirectory.defaultPath() }
            let store = try CounterStore(
                directory: path,
                counters: configuration.roster.counters.map { counter, line in
                    CounterStore.Counter(name: counter.name, line: line.index, flushIntervalNs: counter.flushIntervalNs)
                },
                logger: logger)
            let totals = zip(configuration.counters, store.initialTotals).map { "\($0.name) \($1)" }.joined(separator: ", ")
            logger.info("counters: kept in \(store.path) (\(totals))")
            return store
        } catch {
            throw failure(error.description, ExitStatus.of(error))
        }
    }

    /// The virtual keyboard's sink, if any button or encoder has keys: the device exists from here until
    /// the run ends. With `--simulate` on a machine without `/dev/uinput`, the keys' preview instead.
    /// With `preview`, a simulation's: the keys are shown there, after their events, and none is typed.
    private func makeKeyboard(plan: DaemonPlan, settings: KeyboardSettings, lineCount: Int, preview: OutputBuffer?, logger: Logger) throws -> (any Sink)? {
        guard !plan.keyBindings.isEmpty || !plan.encoderKeyBindings.isEmpty else { return nil }
        let keys = KeyMapping.keys(of: plan.keyBindings, encoders: plan.encoderKeyBindings)
        let mapping = KeyMapping(bindings: plan.keyBindings, encoderBindings: plan.encoderKeyBindings, lineCount: lineCount, encoderCount: plan.encoders.count)
        if let preview { return KeyPreview(mapping: mapping, format: output.format == .json ? .json : .text, output: preview) }
        let device: UInputDevice
        do {
            device = try UInputDevice(
                name: settings.name, keys: keys, relativeAxes: KeyMapping.relativeAxes(of: plan.encoderKeyBindings), autorepeat: settings.autorepeat)
        } catch {
            if simulate, case .missing(let path) = error {
                logger.notice("no \(path): showing the keys instead of typing them")
                return KeyPreview(mapping: mapping, format: output.format == .json ? .json : .text, output: OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0))
            }
            throw failure(error.description, ExitStatus.of(error))
        }
        logger.info("keyboard \"\(settings.name)\" with \(counted(keys.count, "key")) is \(device.eventNode ?? "ready")")
        return KeyboardSink(mapping: mapping, device: device, logger: logger)
    }

    private static func describe(_ stop: StopReason) -> String {
        switch stop {
        case .endOfInput: "the simulated buttons ran out of presses"
        case .eventLimit: "--num-events reached"
        case .idleTimeout: "idle timeout"
        case .duration: "duration reached"
        case .interrupted(let signal?): signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
        case .interrupted(nil): "stopped"
        }
    }
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
}
