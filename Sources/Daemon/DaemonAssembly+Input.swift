import Assembly
import ConfigurationFile
import EventLoop
import DebounceCore
import GPIODBackend
import Inputs
import Logging
import Simulation

extension DaemonAssembly {
    /// The run's input: the configured pins, or a simulation of every configured input. After a reload
    /// (`continuing`: what the run before left, and how the roster changed), a simulation goes on: on
    /// the same clock, the kept inputs' lines where their scripts were, the added ones' from now.
    static func input(
        _ configuration: ServiceConfiguration, choices: DaemonChoices, logger: Logger, continuing: (Carried, RosterChange)? = nil
    ) throws(DaemonFailure) -> RunAssembly {
        if let simulation = choices.simulation {
            guard let (carried, change) = continuing else { return simulated(configuration, simulation) }
            // The run before's clock goes on: the kept inputs' times are on it.
            let fresh = simulated(configuration, simulation, startNs: carried.clock.nowNs, clock: carried.clock)
            guard let previous = carried.simulatedLines else { return fresh }
            guard let freshLines = fresh.pinSource as? SimulatedLines else { return fresh }
            // The pins' lines come first; the lines of inputs that are sources of their own (last: a
            // keypad's keys) carry nothing over here (`RosterChange`).
            let lines = SimulatedLines(continuing: previous, previousLine: Array(change.previousLine.prefix(freshLines.lineCount)), fresh: freshLines)
            // The fresh run's own sources, after its lines: a kept keypad types anew, as a fresh one does.
            return RunAssembly.simulated(lines, names: configuration.roster.pinLines.compactMap(\.settings?.line), virtualTime: simulation.virtualTime, clock: carried.clock)
                .adding(inputSources: fresh.inputSources, places: fresh.places.dropFirst(freshLines.lineCount).compactMap { $0 })
        }
        return try configuredPins(
            configuration, eventBufferSize: choices.eventBufferSize, logger: logger, keeping: continuing?.0.requestedLines,
            previousLine: Array((continuing?.1.previousLine ?? []).prefix(configuration.roster.pinLines.count)))
    }

    /// A simulation of every configured input, as each kind plays its lines
    /// (`InputKinds.simulatedInputs`: a bouncy button making a button's gestures, any other input
    /// what its own kind scripts), laid out in the roster's line order and reported as their
    /// configured lines; each input's seed derives from the
    /// simulation's, so an input plays the same presses whatever else the configuration lists.
    /// `startNs`: when the scripts start on the run's clock (`clock`, or a new one). The inputs that are
    /// sources of their own follow (`InputKinds.simulatedSources`: a keypad's simulated matrix).
    static func simulated(
        _ configuration: ServiceConfiguration, _ simulation: DaemonChoices.Simulation, startNs: Int64 = 0, clock: LoopClock? = nil
    ) -> RunAssembly {
        let roster = configuration.roster
        let inputs = InputKinds.simulatedInputs(of: roster, seed: simulation.seed, presses: simulation.presses)
        let own = InputKinds.simulatedSources(of: roster, seed: simulation.seed, presses: simulation.presses, startNs: startNs)
        guard !inputs.isEmpty || own.sources.isEmpty else {
            return RunAssembly.inputSources(own.sources, places: own.places, clock: clock ?? (simulation.virtualTime ? .virtual() : .realTime()))
        }
        return RunAssembly.simulated(
            SimulatedLines(inputs: inputs, startNs: startNs), names: roster.pinLines.compactMap(\.settings?.line), virtualTime: simulation.virtualTime,
            clock: clock
        ).adding(inputSources: own.sources, places: own.places)
    }

    /// The configured lines, found on this machine's chips (read once, `ChipInventory`; `MachineCheck`,
    /// as `check` finds them) and requested; after a reload, a chip whose lines all belong to kept
    /// inputs (`previousLine`) keeps the request of `keeping`, the lines before (`GPIODLines(keeping:)`).
    static func configuredPins(
        _ configuration: ServiceConfiguration, eventBufferSize: Int?, logger: Logger, keeping previous: GPIODLines? = nil, previousLine: [Int?] = []
    ) throws(DaemonFailure) -> RunAssembly {
        let chips = ChipInventory.read()
        if configuration.roster.pins.contains(where: { $0.settings.chip == nil && Int($0.settings.line) != nil }) {
            logger.info("offsets without chip: mean \(chips.header)")
        }
        let located: [MachineCheck.Located<GPIOChip>]
        do { located = try MachineCheck.locateLinesOnThisMachine(configuration, chips: chips) } catch { throw .machine(error) }
        let pinLines = configuration.roster.pinLines.compactMap(\.settings)
        let selections = zip(pinLines, located).map { wanted, line in
            LineSelection(chip: line.place, offset: line.offset, bias: wanted.bias, kernelDebounceNs: wanted.kernelDebounceNs)
        }
        let assembly: RunAssembly
        do throws(GPIOError) {
            // A chip that goes away while the daemon runs is waited for: its inputs pause, the rest go on.
            let pins = try selections.isEmpty
                ? nil
                : RunAssembly.pins(
                    selections, consumer: "gpio-debounce", eventBufferSize: eventBufferSize, waitsForVanishedChips: true, keeping: previous,
                    previousLine: previousLine)
            // The inputs that are sources of their own after the pins, whose requests a reload kept or released first.
            let own = try InputKinds.requestedSources(
                of: configuration.roster, pins: located.dropFirst(pinLines.count).map { (chip: $0.place, offset: $0.offset) })
            assembly = pins?.adding(inputSources: own.sources, places: own.places)
                ?? RunAssembly.inputSources(own.sources, places: own.places, clock: .monotonic)
        } catch {
            throw .lines(error)
        }
        let what = InputKindID.all.map { (configuration.roster.inputIndices(of: $0).count, $0.noun) }.filter { $0.0 > 0 }.map { counted($0.0, $0.1) }
        logger.info("watching \(what.joined(separator: ", ")) (libgpiod \(GPIODLines.libgpiodVersion))")
        return assembly
    }
}
