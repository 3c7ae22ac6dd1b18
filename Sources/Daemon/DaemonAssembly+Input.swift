import Assembly
import ConfigurationFile
import DebounceCore
import GPIODBackend
import Logging
import Simulation

extension DaemonAssembly {
    /// The run's input: the configured pins, or a simulation of every configured input.
    static func input(_ configuration: ServiceConfiguration, choices: DaemonChoices, logger: Logger) throws(DaemonFailure) -> RunAssembly {
        if let simulation = choices.simulation { return simulated(configuration, simulation) }
        return try configuredPins(configuration, eventBufferSize: choices.eventBufferSize, logger: logger)
    }

    /// A simulated bouncy button for each configured button (making the gestures the button
    /// recognizes), a simulated encoder for each encoder, a door's reed contact opened and closed for
    /// each sensor and an S0 meter's pulses for each counter (each seeded from the simulation's seed),
    /// reported as their configured lines.
    static func simulated(_ configuration: ServiceConfiguration, _ simulation: DaemonChoices.Simulation) -> RunAssembly {
        let (seed, presses) = (simulation.seed, simulation.presses)
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
            virtualTime: simulation.virtualTime)
    }

    /// The configured lines, found on this machine's chips (read once, `ChipInventory`; `MachineCheck`,
    /// as `check` finds them) and requested.
    static func configuredPins(_ configuration: ServiceConfiguration, eventBufferSize: Int?, logger: Logger) throws(DaemonFailure) -> RunAssembly {
        let chips = ChipInventory.read()
        if configuration.buttons.contains(where: { $0.chip == nil && Int($0.line) != nil }) {
            logger.info("offsets without chip: mean \(chips.header)")
        }
        let located: [MachineCheck.Located<GPIOChip>]
        do { located = try MachineCheck.locateLinesOnThisMachine(configuration, chips: chips) } catch { throw .machine(error) }
        let selections = zip(configuration.roster.lines, located).map { wanted, line in
            LineSelection(chip: line.place, offset: line.offset, bias: wanted.settings.bias, kernelDebounceNs: wanted.settings.kernelDebounceNs)
        }
        let assembly: RunAssembly
        do {
            assembly = try RunAssembly.pins(selections, consumer: "gpio-debounce", eventBufferSize: eventBufferSize)
        } catch {
            throw .lines(error)
        }
        let what = [
            (configuration.buttons.count, "button"), (configuration.encoders.count, "encoder"), (configuration.sensors.count, "sensor"),
            (configuration.counters.count, "counter"),
        ].filter { $0.0 > 0 }.map { counted($0.0, $0.1) }
        logger.info("watching \(what.joined(separator: ", ")) (libgpiod \(GPIODLines.libgpiodVersion))")
        return assembly
    }
}
