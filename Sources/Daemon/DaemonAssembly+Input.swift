import Assembly
import ConfigurationFile
import EventLoop
import DebounceCore
import GPIODBackend
import Keypads
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
            // The pins' lines come first; a keypad's keys (last) carry nothing over (`RosterChange`).
            let lines = SimulatedLines(continuing: previous, previousLine: Array(change.previousLine.prefix(freshLines.lineCount)), fresh: freshLines)
            // The fresh run's keypads, after its lines: a kept keypad types anew, as a fresh one does.
            let keypads = fresh.keypads
            return RunAssembly.simulated(lines, names: configuration.roster.pinLines.compactMap(\.settings?.line), virtualTime: simulation.virtualTime, clock: carried.clock)
                .adding(keypads: keypads, places: fresh.places.dropFirst(freshLines.lineCount).compactMap { $0 })
        }
        return try configuredPins(
            configuration, eventBufferSize: choices.eventBufferSize, logger: logger, keeping: continuing?.0.requestedLines,
            previousLine: Array((continuing?.1.previousLine ?? []).prefix(configuration.roster.pinLines.count)))
    }

    /// A simulated bouncy button for each configured button (making the gestures the button
    /// recognizes), a simulated encoder for each encoder (and a bouncy button on its reset line), a door's reed contact opened and closed for
    /// each sensor and an S0 meter's pulses for each counter, laid out in the roster's line order and
    /// reported as their configured lines. Each input's seed is the simulation's seed plus its kind's
    /// offset (buttons 0, encoders 1000, sensors 2000, counters 3000, reset buttons 4000) plus its index among its kind, so
    /// an input plays the same presses whatever else the configuration lists.
    /// `startNs`: when the scripts start on the run's clock (`clock`, or a new one). Keypads follow, each a
    /// simulated matrix (`simulatedKeypads`).
    static func simulated(
        _ configuration: ServiceConfiguration, _ simulation: DaemonChoices.Simulation, startNs: Int64 = 0, clock: LoopClock? = nil
    ) -> RunAssembly {
        let roster = configuration.roster
        var inputs: [SimulatedInput] = []
        var ofKind: [InputKindID: UInt64] = [:]
        for input in roster.inputs {
            let index = ofKind[input.id.kind, default: 0]
            ofKind[input.id.kind] = index + 1
            inputs += simulated(input.kind, index: index, simulation)
        }
        let keypads = simulatedKeypads(configuration, simulation, startNs: startNs)
        guard !inputs.isEmpty || keypads.sources.isEmpty else {
            return RunAssembly.keypads(keypads.sources, places: keypads.places, clock: clock ?? (simulation.virtualTime ? .virtual() : .realTime()))
        }
        return RunAssembly.simulated(
            SimulatedLines(inputs: inputs, startNs: startNs), names: roster.pinLines.compactMap(\.settings?.line), virtualTime: simulation.virtualTime,
            clock: clock
        ).adding(keypads: keypads.sources, places: keypads.places)
    }

    /// The simulation of one configured input, the `index`-th of its kind, one entry per line group:
    /// an encoder with a reset button is its encoder (A, B) and a bouncy button (the reset line).
    /// A keypad is none (`simulatedKeypads`).
    private static func simulated(_ kind: Roster.Input.Kind, index: UInt64, _ simulation: DaemonChoices.Simulation) -> [SimulatedInput] {
        if case .keypad = kind { return [] }
        guard case .encoder(let encoder) = kind, let reset = encoder.reset else { return simulatedInput(kind, index: index, simulation).map { [$0] } ?? [] }
        let button = BouncyButton(seed: simulation.seed &+ 4_000 &+ index, activeLevel: reset.debounce.activeLevel, presses: simulation.presses)
        return (simulatedInput(kind, index: index, simulation).map { [$0] } ?? []) + [.contact(button)]
    }

    /// The simulation of one configured input's first lines (all of them but an encoder's reset line).
    private static func simulatedInput(_ kind: Roster.Input.Kind, index: UInt64, _ simulation: DaemonChoices.Simulation) -> SimulatedInput? {
        let (seed, presses) = (simulation.seed, simulation.presses)
        switch kind {
        case .button(let button):
            let clickCounts = button.actions.compactMap(\.count) + button.keys.compactMap(\.count)
            return .contact(
                BouncyButton(
                    seed: seed &+ index, activeLevel: button.debounce.activeLevel, presses: presses,
                    gestures: SimulatedGestures(button.gestures, debounce: button.debounce, clickCounts: clickCounts)))
        case .encoder:
            return .encoder(BouncyEncoder(seed: seed &+ 1_000 &+ index, gestures: presses))
        case .sensor(let sensor):
            return .contact(BouncyButton(profile: .reedContact, seed: seed &+ 2_000 &+ index, activeLevel: sensor.debounce.activeLevel, presses: presses))
        case .counter(let counter):
            return .contact(BouncyButton(profile: .meterPulse, seed: seed &+ 3_000 &+ index, activeLevel: counter.debounce.activeLevel, presses: presses))
        case .keypad:
            return nil
        }
    }

    /// The configured lines, found on this machine's chips (read once, `ChipInventory`; `MachineCheck`,
    /// as `check` finds them) and requested; after a reload, a chip whose lines all belong to kept
    /// inputs (`previousLine`) keeps the request of `keeping`, the lines before (`GPIODLines(keeping:)`).
    static func configuredPins(
        _ configuration: ServiceConfiguration, eventBufferSize: Int?, logger: Logger, keeping previous: GPIODLines? = nil, previousLine: [Int?] = []
    ) throws(DaemonFailure) -> RunAssembly {
        let chips = ChipInventory.read()
        if configuration.buttons.contains(where: { $0.lineSettings.chip == nil && Int($0.lineSettings.line) != nil }) {
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
            // Keypads after the pins, whose requests a reload kept or released first.
            let keypads = try requestedKeypads(configuration, located: located.dropFirst(pinLines.count))
            assembly = pins?.adding(keypads: keypads.sources, places: keypads.places)
                ?? RunAssembly.keypads(keypads.sources, places: keypads.places, clock: .monotonic)
        } catch {
            throw .lines(error)
        }
        let what = [
            (configuration.buttons.count, "button"), (configuration.encoders.count, "encoder"), (configuration.sensors.count, "sensor"),
            (configuration.counters.count, "counter"), (configuration.keypads.count, "keypad"),
        ].filter { $0.0 > 0 }.map { counted($0.0, $0.1) }
        logger.info("watching \(what.joined(separator: ", ")) (libgpiod \(GPIODLines.libgpiodVersion))")
        return assembly
    }
}
