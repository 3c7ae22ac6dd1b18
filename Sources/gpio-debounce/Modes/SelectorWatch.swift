import ArgumentParser
import ConfigurationFile
import Daemon
import EventLoop
import Inputs
import Logging

/// `watch --selector LINES`: a selector switch's position as its lines settle, one event per
/// position (`select`, or `invalid` between two): a configuration of that one selector, run as
/// `run` runs one (its printer, its simulation, its health at the stop; with `--wait-for-chips`, a chip
/// not there yet waited for).
struct SelectorWatch: WatchMode {
    @Option(
        name: .customLong("selector"),
        help: ArgumentHelp(
            "Watch a selector switch on these lines (e.g. 5,6,13: one per position, or bit 0 first with --code): one select event per position it settles on, its position at the start first.",
            valueName: "LINES"))
    var lines: String?

    @OptionGroup var reading: SelectorOptions

    static let option = "--selector LINES"
    static let input = "selector"
    static let simulated = "with --selector a simulated switch turned now and then"
    var isChosen: Bool { lines != nil }
    var strayOptions: String? { reading.isGiven ? "--code, --positions and --settle say how --selector reads a switch: add --selector LINES." : nil }

    func validate(with watch: WatchCommand) throws {
        try LineArgument.requireDistinct(LineArgument.parseList(lines ?? ""))
        if watch.kernelDebounceNs > 0 || watch.debounce.press != nil || watch.debounce.release != nil {
            throw ValidationError("A selector's lines are not debounced one by one: its reading must hold for --settle (20ms by default) instead.")
        }
    }

    func watch(with watch: WatchCommand) throws {
        let simulation = watch.simulation
        let text = reading.configuration(
            lines: try LineArgument.parseList(lines ?? ""), chip: watch.chip, bias: watch.bias.value.rawValue,
            active: watch.debounce.configuration.activeLevel == .activeLow ? "low" : "high")
        let configuration: ServiceConfiguration
        do {
            configuration = try ConfigurationLoader.load(text, file: "watch --selector")
        } catch {
            throw failure(error.description, ExitStatus.usage)
        }
        let logger = LogLevelArgument(.info).bootstrap()
        let signals = try signalDescriptor()
        let simulated = DaemonChoices.Simulation(seed: simulation.chosenSeed(), presses: simulation.presses, virtualTime: simulation.virtualTime)
        let choices = DaemonChoices(
            simulation: simulation.simulate ? simulated : nil, eventBufferSize: watch.kernelQueue.eventBufferSize,
            limits: watch.limits, format: watch.output.format == .json ? .json : .text, softwareVersion: Version.number)
        let assemble = { () throws(DaemonFailure) in try DaemonAssembly(configuration, choices: choices, stop: .signals(signals), logger: logger) }
        let arrival = watch.waitForChips && !simulation.simulate ? ChipArrival(signals: signals, notify: { logger.notice("\($0.text)") }) : nil
        guard let daemon = try arrival.map({ try $0.assembling(assemble) }) ?? assembling(assemble) else { return }
        daemon.logSummary(of: try runToEnd(daemon.loop))
    }
}
