import Actions
import Assembly
import ConfigurationFile
import KeptState
import DebounceCore
import EventLoop
import EventOutput
import InputModel
import Inputs
import Keys
import LinuxSys
import Logging
import Recording

extension DaemonAssembly {
    /// What the run's events go to: the printer, then the action runner and the virtual keyboard, or in
    /// a simulation without `runsActions` what they would do, shown after each event on the printer's
    /// output (`ActionPreview`, `KeyPreview`); each input as `inputs` present it, over `lineCount` run
    /// lines. `restored`: the inputs that start from the value the state directory kept, which the
    /// printer shows at the start (`InputPresenter.printedRestoredStart`).
    static func eventSinks(
        _ configuration: ServiceConfiguration, plan: DaemonPlan, inputs: [any InputPresenter], lineCount: Int, choices: DaemonChoices,
        restored: Set<Int> = [], logger: Logger
    ) throws(DaemonFailure) -> [any Sink] {
        let out = OutputBuffer(fileDescriptor: choices.output, flushThreshold: 0)
        var sinks: [any Sink] = [
            EventPrinter(writer: EventWriter(format: choices.format, output: out), inputs: inputs, lineCount: lineCount, restored: restored)
        ]
        if choices.showsOutputs {
            sinks.append(ActionPreview(actions: plan.actions, bindings: plan.actionBindings, inputs: inputs, format: choices.format, output: out))
            if !plan.actions.isEmpty || !plan.keyBindings.isEmpty {
                logger.notice("a simulation shows the actions and keys it would start, and runs none (--run-actions runs them)")
            }
        } else {
            sinks.append(ActionRunner(actions: plan.actions, bindings: plan.actionBindings, inputs: inputs, logger: logger))
        }
        if let keyboard = try keyboard(plan: plan, inputs: inputs, settings: configuration.keyboard, choices: choices, preview: out, logger: logger) {
            sinks.append(keyboard)
        }
        if choices.simulation == nil { sinks.append(ChipAvailabilityLog(roster: configuration.roster, logger: logger)) }
        return sinks
    }

    /// The virtual keyboard's sink, if any input sends keys (the plan's `keyBindings`, matched to the
    /// outputs of `inputs`): the device exists from here until
    /// the run ends. In a simulation that shows its outputs, the keys' preview on `preview` (after their
    /// events) instead, and in a simulation on a machine without `/dev/uinput` too.
    static func keyboard(
        plan: DaemonPlan, inputs: [any InputPresenter], settings: KeyboardSettings, choices: DaemonChoices, preview: OutputBuffer, logger: Logger
    ) throws(DaemonFailure) -> (any Sink)? {
        guard !plan.keyBindings.isEmpty else { return nil }
        let keys = KeyMapping.keys(of: plan.keyBindings)
        let mapping = KeyMapping(bindings: plan.keyBindings, inputs: inputs)
        if choices.showsOutputs { return KeyPreview(mapping: mapping, format: choices.format, output: preview) }
        let device: UInputDevice
        do {
            device = try UInputDevice(
                name: settings.name, keys: keys, relativeAxes: KeyMapping.relativeAxes(of: plan.keyBindings), autorepeat: settings.autorepeat)
        } catch {
            if choices.simulation != nil, case .missing(let path) = error {
                logger.notice("no \(path): showing the keys instead of typing them")
                return KeyPreview(mapping: mapping, format: choices.format, output: OutputBuffer(fileDescriptor: choices.output, flushThreshold: 0))
            }
            throw .keyboard(error)
        }
        logger.info("keyboard \"\(settings.name)\" with \(counted(keys.count, "key")) is \(device.eventNode ?? "ready")")
        return KeyboardSink(mapping: mapping, device: device, logger: logger)
    }

    /// A simulation's own state directory (`SimulationStateDirectory`), when it keeps values
    /// (`InputKinds.kept`) and no state directory was chosen: the totals of real meters and the
    /// positions of real knobs are never read or written by a simulation.
    static func simulationStateDirectory(
        _ configuration: ServiceConfiguration, choices: DaemonChoices, logger: Logger
    ) throws(DaemonFailure) -> SimulationStateDirectory? {
        guard choices.simulation != nil, choices.stateDirectory == nil, configuration.keepsState else { return nil }
        do {
            let directory = try SimulationStateDirectory()
            // One note, of the first file the run keeps.
            if let file = StateStore.files(of: InputKinds.kept(of: configuration.roster)).first {
                logger.info("\(file.simulationNote(directory.path))")
            }
            return directory
        } catch {
            throw .keptState(error)
        }
    }

    /// The store of the values the configuration's inputs keep (`InputKinds.kept`), if it keeps any
    /// (`ServiceConfiguration.keepsState`): locks the state directory (`directory`, else
    /// `StateDirectory.defaultPath()`) and reads what is kept there. `handedOver`: the lock of the run
    /// before a reload, taken over (or released, when this configuration keeps no state).
    static func stateStore(
        _ configuration: ServiceConfiguration, directory: String?, handedOver: StateDirectoryLock? = nil, logger: Logger
    ) throws(DaemonFailure) -> StateStore? {
        guard configuration.keepsState else {
            handedOver?.release()
            return nil
        }
        do throws(KeptStateError) {
            let path: String
            if let directory { path = directory } else { path = try StateDirectory.defaultPath() }
            let store = try StateStore(directory: path, entries: InputKinds.kept(of: configuration.roster), logger: logger, lock: handedOver)
            for file in store.files {
                let entries = store.indices(in: file).map { (store.entries[$0].name, store.initialValues[$0]) }
                logger.info("\(file.keptLine(path: store.path(of: file), entries: entries))")
            }
            return store
        } catch {
            throw .keptState(error)
        }
    }

    /// What the store kept of each input, by its input (a meter's total, a restored encoder's position,
    /// which the plan clamps); none for an input its file does not list yet and that has no value then.
    static func keptStarts(_ store: StateStore?) -> [Int: Int64] {
        guard let store else { return [:] }
        var kept: [Int: Int64] = [:]
        for (entry, value) in zip(store.entries, store.initialValues) { kept[entry.input] = value }
        return kept
    }
}
