import Assembly
import KeptState
import ConfigurationFile
import Inputs
import DebounceCore
import EventLoop
import ESPHomeDevice
import EventSocket
import GPIODBackend
import Logging
import MQTT
import Pipeline
import Settings
import Simulation

extension DaemonAssembly {
    /// What a reload takes from the run before to the next (`handOver`, then `init(carrying:)`).
    package struct Carried {
        /// The roster that ran: the next one is matched against it (`RosterChange`).
        let roster: Roster
        /// The stages as they stood: the kept inputs' state (`ButtonPipeline.carry`).
        let pipeline: ButtonPipeline
        /// The run's clock: the stages' times stay on it.
        let clock: LoopClock
        /// A simulation's lines: the kept inputs' scripts go on.
        let simulatedLines: SimulatedLines?
        /// The requested lines: a chip whose lines did not change keeps its request (`GPIODLines(keeping:)`).
        let requestedLines: GPIODLines?
        /// The state of each input that is a source of its own, as it stood, by the input's name
        /// (`InputSource.carriedState`: a keypad's scanner): a kept one goes on from it. States only:
        /// their lines are released with the run before, for the next run to request.
        let sourceStates: [String: Any]
        /// The MQTT sink, still connected, when the next configuration publishes with the same settings.
        let mqttSink: MQTTSink?
        /// The events socket, still listening with its clients connected: the next run keeps it when its
        /// path stays (`EventSocketSink.adopt`).
        let eventSocket: EventSocketSink?
        /// The device's ESPHome API, still listening with its clients connected: the next run keeps it
        /// when the device and its port stay (`ESPHomeAPISink.adopt`).
        let espHomeAPI: ESPHomeAPISink?
        /// A simulation's own state directory.
        let simulationState: SimulationStateDirectory?
        /// The state directory's lock, handed from the run before's state store to the next one's
        /// (never left to the release of the run before), or `nil` when it kept no state.
        let stateLock: StateDirectoryLock?
        /// Sinks with work in flight (running actions), as `RetiringSink`s: they finish it in the next run.
        let retiring: [any Sink]
        /// Events reported and wakeups of the runs so far, for the summary at the stop.
        let events: Int, wakeups: Int
    }

    /// Reads what the next run takes over and lets go of the rest, for a reload to `next`: the kept
    /// values are saved (the next store reads them), the keyboard lets its keys go, a sink with work in
    /// flight retires (`RetiringSink`), and the MQTT sink is kept when `next`'s MQTT settings are the
    /// same, else disconnected. The lines stay requested until this assembly is released.
    func handOver(to next: ServiceConfiguration) -> Carried {
        let nowNs = loop.clock.nowNs
        let keepsMQTT = mqttSink != nil && Self.mqttSettings(next, choices: choices) == mqtt
        var retiring: [any Sink] = []
        for sink in sinks {
            if sink === mqttSink, keepsMQTT { continue }
            if sink === eventSocket || sink === espHomeAPI { continue }
            if sink is RetiringSink || sink.isBusy, sink !== mqttSink, sink !== stateStore {
                retiring.append(sink is RetiringSink ? sink : RetiringSink(sink))
                continue
            }
            sink.beginShutdown(atNs: nowNs, graceEndNs: nowNs)
            do throws(SinkError) { try sink.finish(atNs: nowNs) } catch { logger.warning("reload: \(error)") }
        }
        let carried = Carried(
            roster: configuration.roster, pipeline: loop.pipeline, clock: loop.clock, simulatedLines: pinSource as? SimulatedLines,
            requestedLines: pinSource as? GPIODLines,
            sourceStates: Dictionary(inputSources.map { ($0.name, $0.source.carriedState) }, uniquingKeysWith: { first, _ in first }),
            mqttSink: keepsMQTT ? mqttSink : nil, eventSocket: eventSocket, espHomeAPI: espHomeAPI, simulationState: simulationState, stateLock: stateStore?.lock, retiring: retiring.filter(\.isBusy),
            events: eventsBefore + loop.reportedEvents, wakeups: wakeupsBefore + loop.wakeups)
        simulationState = nil
        return carried
    }

    /// Reloads the daemon in `current` with `next` (SIGHUP): checks `next` as a start does (its MQTT
    /// files, its lines on this machine's chips) and refuses it, leaving `current` as it is, if that
    /// fails (the reason is logged). Otherwise hands `current` over, releases it, and assembles `next`
    /// carrying the kept inputs' state; if that fails (a line another process holds, say), assembles the
    /// configuration before again the same way. Throws only when that fails too.
    package static func reload(_ current: inout DaemonAssembly?, to next: ServiceConfiguration) throws(DaemonFailure) {
        guard let running = current else { return }
        let (previous, choices, stop, logger) = (running.configuration, running.choices, running.stop, running.logger)
        if let refusal = refusal(of: next, choices: choices) {
            logger.error("reload refused, going on with the running configuration: \(refusal)")
            running.eventSocket?.reloadRefused("\(refusal)")
            return
        }
        let change = RosterChange(from: previous.roster, to: next.roster)
        let carried = running.handOver(to: next)
        current = nil
        _ = consume running
        do {
            current = try DaemonAssembly(next, choices: choices, stop: stop, logger: logger, carrying: carried)
        } catch {
            logger.error("reload failed, going back to the configuration before: \(error)")
            carried.eventSocket?.reloadRefused("it failed, and the daemon went back to the configuration before: \(error)", rollingBack: true)
            current = try DaemonAssembly(previous, choices: choices, stop: stop, logger: logger, carrying: carried)
            return
        }
        logger.notice("reloaded \(next.source): \(describe(change))")
    }

    /// Each input that is a source of its own and that the reload kept (`change`) goes on from its
    /// state in the run before, at `nowNs` (`InputSource.goOn`: a keypad's held keys stay down until a
    /// scan finds them up).
    static func continueSources(_ sources: [RunAssembly.NamedSource], from carried: Carried, _ change: RosterChange, atNs nowNs: Int64) {
        let kept = Set(change.kept)
        for named in sources where kept.contains(named.name) {
            if let state = carried.sourceStates[named.name] { named.source.goOn(from: state, atNs: nowNs) }
        }
    }

    /// Why `next` cannot run as a start would check it (`MachineCheck`: its MQTT files, its lines on
    /// this machine's chips), or `nil`.
    static func refusal(of next: ServiceConfiguration, choices: DaemonChoices) -> DaemonFailure? {
        do { try MachineCheck.readConfiguredFiles(next) } catch { return .machine(error) }
        if next.mqtt != nil, choices.simulation?.virtualTime == true { return .mqttNeedsRealTime }
        guard choices.simulation == nil else { return nil }
        do { _ = try MachineCheck.locateLinesOnThisMachine(next, chips: ChipInventory.read()) } catch { return .machine(error) }
        return nil
    }

    /// What a reload changed, for the log: `2 kept, added door, changed bell, removed meter`.
    static func describe(_ change: RosterChange) -> String {
        var parts = ["\(change.kept.count) kept"]
        if !change.added.isEmpty { parts.append("added \(change.added.joined(separator: ", "))") }
        if !change.changed.isEmpty { parts.append("changed \(change.changed.joined(separator: ", "))") }
        if !change.removed.isEmpty { parts.append("removed \(change.removed.joined(separator: ", "))") }
        return parts.joined(separator: "; ")
    }

    /// The value each input the reload kept holds in the run before (`ButtonPipeline.value(ofInput:)`:
    /// a meter's total, a knob's position), by its input in the next roster: where it goes on from.
    static func carriedValues(_ change: RosterChange, from previous: ButtonPipeline) -> [Int: Int64] {
        var values: [Int: Int64] = [:]
        for (input, old) in change.previousInput.enumerated() {
            if let old, let value = previous.value(ofInput: old) { values[input] = value }
        }
        return values
    }
}
