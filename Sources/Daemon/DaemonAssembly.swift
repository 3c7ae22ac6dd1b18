#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Assembly
import ConfigurationFile
import KeptState
import DebounceCore
import EventLoop
import ESPHomeDevice
import EventSocket
import GPIODBackend
import Inputs
import LineInput
import Logging
import MQTT
import Pipeline
import Settings

/// The daemon (`gpio-debounce run`) put together from a configuration and the run's choices: the input
/// (the configured pins, or a simulation of every input), the plan of every line (`DaemonPlan`), the
/// sinks (the event printer; the action runner and the virtual keyboard, or a simulation's previews of
/// them; the state store; the MQTT sink) and the `EventLoop` that runs them.
///
/// ```swift
/// let daemon = try DaemonAssembly(configuration, choices: choices, stop: .signals(signals), logger: logger)
/// let stop = try daemon.loop.run()
/// daemon.logSummary(of: stop)
/// ```
///
/// It owns what the run needs until it is released: the loop (with its lines and sinks) and a
/// simulation's temporary state directory, which is removed then.
package final class DaemonAssembly {
    /// The run's loop, ready to run: its lines requested and their initial levels read.
    package let loop: EventLoop
    /// The sinks, in the order the loop hands them each output.
    package let sinks: [any Sink]
    /// The plan the loop runs: every line's stages, the actions and keys with what starts them.
    package let plan: DaemonPlan
    /// Each line's place (chip and offset, `simulated` for a simulation), in the roster's line order.
    package let places: [RunAssembly.LinePlace]
    /// The source of the pins' lines, as made (`RunAssembly.pinSource`): what a reload takes requests
    /// or scripts over from; nil when the run has no other lines than its own sources' (keypads only).
    let pinSource: (any EdgeSource)?
    /// The sources of the inputs that are sources of their own, each with its input's name
    /// (`RunAssembly.inputSources`: a keypad's matrix).
    let inputSources: [RunAssembly.NamedSource]
    /// The store of the values the inputs keep (`StateStore`), when the configuration keeps any.
    package let stateStore: StateStore?
    /// What the MQTT sink publishes with: the configuration's `mqtt:` section, or for a simulation its
    /// own identity (`MQTTSettings.simulation`); `nil` without MQTT.
    package let mqtt: MQTTSettings?
    /// The MQTT sink, when the configuration has `mqtt:`.
    package let mqttSink: MQTTSink?
    /// The events socket, when the run listens on one (`DaemonChoices.eventSocket`, `socket:`).
    package let eventSocket: EventSocketSink?
    /// The device's ESPHome API, when the configuration has `api:`.
    package let espHomeAPI: ESPHomeAPISink?
    /// A simulation's own state directory, when it keeps values and no `stateDirectory` was chosen;
    /// handed to the next assembly by a reload (`handOver`).
    package internal(set) var simulationState: SimulationStateDirectory?
    /// The configuration it runs.
    package let configuration: ServiceConfiguration
    /// The configuration's inputs and lines: whose health `logHealth` reports.
    package var roster: Roster { configuration.roster }
    /// The run's choices and stop control, which a reload keeps.
    let choices: DaemonChoices
    let stop: RunAssembly.StopControl
    let logger: Logger
    /// Events reported and wakeups of the runs before the last reload.
    let eventsBefore: Int, wakeupsBefore: Int

    /// Assembles the daemon of `configuration` as `choices` say, stopped from outside by `stop`;
    /// messages of the start (what is watched, where the kept values are) go to `logger`. Checks the
    /// configuration's MQTT files and lines on this machine first (`MachineCheck`), as `check` does.
    ///
    /// `carrying`: what a reload takes over from the run before (`handOver`): the kept inputs' state,
    /// the clock, a simulation's kept lines, the MQTT sink when its settings are the same, the
    /// simulation's state directory and the sinks with work still in flight.
    package init(
        _ configuration: ServiceConfiguration, choices: DaemonChoices, stop: RunAssembly.StopControl, logger: Logger, carrying carried: Carried? = nil
    ) throws(DaemonFailure) {
        self.logger = logger
        self.configuration = configuration
        self.choices = choices
        self.stop = stop
        (eventsBefore, wakeupsBefore) = (carried?.events ?? 0, carried?.wakeups ?? 0)
        do { try MachineCheck.readConfiguredFiles(configuration) } catch { throw .machine(error) }
        let mqtt = Self.mqttSettings(configuration, choices: choices)
        self.mqtt = mqtt
        if configuration.mqtt != nil, choices.simulation?.virtualTime == true { throw .mqttNeedsRealTime }
        let change = carried.map { RosterChange(from: $0.roster, to: configuration.roster) }
        var continuing: (Carried, RosterChange)?
        if let carried, let change { continuing = (carried, change) }
        let input = try Self.input(configuration, choices: choices, logger: logger, continuing: continuing)
        if let carried, let change { Self.continueSources(input.inputSources, from: carried, change, atNs: input.clock.nowNs) }
        places = input.places.compactMap { $0 }
        pinSource = input.pinSource
        inputSources = input.inputSources
        let madeState = carried?.simulationState == nil
        let simulationState: SimulationStateDirectory?
        if let kept = carried?.simulationState {
            simulationState = kept
        } else {
            simulationState = try Self.simulationStateDirectory(configuration, choices: choices, logger: logger)
        }
        self.simulationState = simulationState
        do throws(DaemonFailure) {
            let stateStore = try Self.stateStore(
                configuration, directory: simulationState?.path ?? choices.stateDirectory, handedOver: carried?.stateLock, logger: logger)
            self.stateStore = stateStore
            let kept = Self.keptStarts(stateStore)
            let plan = DaemonPlan(configuration, starts: kept)
            self.plan = plan
            let places = self.places
            // A reload's kept inputs go on from the values they hold (a knob's position, a meter's
            // total); the others start from their kept value, which the printer shows (`restored`).
            var carriedValues: [Int: Int64] = [:]
            if let carried, let change { carriedValues = Self.carriedValues(change, from: carried.pipeline) }
            let restored = Set(kept.keys).subtracting(carriedValues.keys)
            let starts = plan.starts.merging(carriedValues) { _, carried in carried }
            // Each input as the sinks show it, made once for all of them.
            let inputs = InputKinds.presenters(of: configuration.roster, place: { (chip: places[$0.index].chip, offset: places[$0.index].offset) }, starts: starts)
            var sinks = try Self.eventSinks(
                configuration, plan: plan, inputs: inputs, lineCount: places.count, choices: choices, restored: restored, logger: logger)
            sinks += carried?.retiring ?? []
            if let stateStore { sinks.append(stateStore) }
            var mqttSink: MQTTSink?
            if let mqtt {
                do throws(MQTTError) {
                    let made = try MQTTSink(settings: mqtt, inputs: inputs, softwareVersion: choices.softwareVersion, logger: logger)
                    if let previous = carried?.mqttSink, previous.settings == mqtt {
                        previous.adopt(made)
                        mqttSink = previous
                    } else {
                        mqttSink = made
                    }
                } catch {
                    throw DaemonFailure.mqtt(error)
                }
                if carried?.mqttSink !== mqttSink {
                    let identity = choices.simulation == nil ? "" : " as \(mqtt.clientID), a device of its own"
                    logger.info("mqtt: publishing to \(mqtt.url) under \(mqtt.base)\(identity) (libmosquitto \(MQTTSink.libraryVersion))")
                }
            }
            if let mqttSink { sinks.append(mqttSink) }
            self.mqttSink = mqttSink
            let eventSocket = try Self.eventSocket(configuration, choices: choices, inputs: inputs, carried: carried?.eventSocket, logger: logger)
            if let eventSocket { sinks.append(eventSocket) }
            self.eventSocket = eventSocket
            let espHomeAPI = try Self.espHomeAPI(configuration, choices: choices, inputs: inputs, carried: carried?.espHomeAPI, logger: logger)
            if let espHomeAPI { sinks.append(espHomeAPI) }
            self.espHomeAPI = espHomeAPI
            self.sinks = sinks
            do throws(LineError) {
                loop = try input.loop(
                    plan: plan.pipeline, sinks: sinks, stop: stop, limits: choices.limits)
            } catch {
                throw DaemonFailure.start(error)
            }
            if let carried, let change {
                // Lines requested again (not taken over with their chip's request) may have missed edges.
                let kept = Set(change.previousLine.indices.filter { change.previousLine[$0] != nil })
                let requestedAgain = (input.pinSource as? GPIODLines).map { kept.subtracting($0.linesKept) } ?? []
                loop.carry(
                    from: carried.pipeline, previousLine: change.previousLine, previousInput: change.previousInput,
                    suspecting: requestedAgain)
                // A sink that knows the kept lines' states already is not told them again.
                if mqttSink == nil || mqttSink === carried.mqttSink { loop.linesCarriedOver = kept }
            }
        } catch {
            if madeState { simulationState?.remove(files: InputKinds.stateFiles) }
            throw error
        }
        // SIGUSR1 (when the run's signal descriptor watches `.report`): every input's health to the log.
        loop.reportRequested = { [weak self] pipeline, nowNs in self?.logHealth(pipeline, atNs: nowNs) }
    }

    deinit {
        simulationState?.remove(files: InputKinds.stateFiles)
    }

    /// What the MQTT sink of `configuration` publishes with under `choices`: a simulation publishes
    /// under an identity of its own, never the live daemon's (`MQTTSettings.simulation`).
    package static func mqttSettings(_ configuration: ServiceConfiguration, choices: DaemonChoices) -> MQTTSettings? {
        choices.simulation == nil ? configuration.mqtt : configuration.mqtt?.simulation
    }

    /// Logs every input's health in `pipeline` at `timeNs`, one line each (`InputHealthReport`).
    package func logHealth(_ pipeline: ButtonPipeline, atNs timeNs: Int64) {
        for line in InputHealthReport(roster, pipeline: pipeline, atNs: timeNs).lines { logger.info("\(line)") }
        for named in inputSources { logger.info("\(named.source.healthLine(name: named.name))") }
    }

    /// Logs the end of the run: every input's health, the state files' writes, why the loop stopped
    /// (`stop`), and its events and wakeups.
    package func logSummary(of stop: StopReason) {
        logHealth(loop.pipeline, atNs: loop.clock.nowNs)
        if let stateStore {
            // One line a file the run keeps: `positions: 1 write of …/positions`.
            for file in stateStore.files {
                let failures = stateStore.failedWritesOf[file] ?? 0
                let failed = failures > 0 ? ", \(counted(failures, "failed write"))" : ""
                logger.info("\(file.fileName): \(counted(stateStore.writesOf[file] ?? 0, "write")) of \(stateStore.path(of: file))\(failed)")
            }
        }
        logger.info("stopped (\(Self.describe(stop))) after \(counted(eventsBefore + loop.reportedEvents, "event")) and \(counted(wakeupsBefore + loop.wakeups, "wakeup"))")
    }

    /// Why a run stopped, for the summary: `SIGTERM`, `--num-events reached`.
    package static func describe(_ stop: StopReason) -> String {
        switch stop {
        case .endOfInput: "the simulated inputs ran out of presses"
        case .eventLimit: "--num-events reached"
        case .idleTimeout: "idle timeout"
        case .duration: "duration reached"
        case .interrupted(let signal?): signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
        case .interrupted(nil): "stopped"
        case .reloadRequested: "SIGHUP"
        }
    }
}
