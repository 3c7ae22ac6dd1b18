import ConfigurationFile
import Daemon
import EventLoop
import Inputs
import Logging

/// `watch --selector LINES`: a selector switch's position as its lines settle, one event per
/// position (`select`, or `invalid` between two): a configuration of that one selector, run as
/// `run` runs one (its printer, its simulation, its health at the stop; with `--wait-for-chips`, a chip
/// not there yet waited for).
extension WatchCommand {
    func watchSelector(_ names: [String]) throws {
        let text = selectorOptions.configuration(
            lines: names, chip: chip, bias: bias.value.rawValue, active: debounce.configuration.activeLevel == .activeLow ? "low" : "high")
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
            simulation: simulation.simulate ? simulated : nil, eventBufferSize: kernelQueue.eventBufferSize,
            limits: LoopLimits(maximumEvents: numEvents, idleTimeoutNs: idleTimeoutNs), format: output.format == .json ? .json : .text,
            softwareVersion: Version.number)
        let assemble = { () throws(DaemonFailure) in try DaemonAssembly(configuration, choices: choices, stop: .signals(signals), logger: logger) }
        let arrival = waitForChips && !simulation.simulate ? ChipArrival(signals: signals, notify: { logger.notice("\($0.text)") }) : nil
        guard let daemon = try arrival.map({ try $0.assembling(assemble) }) ?? assembling(assemble) else { return }
        daemon.logSummary(of: try runToEnd(daemon.loop))
    }
}
