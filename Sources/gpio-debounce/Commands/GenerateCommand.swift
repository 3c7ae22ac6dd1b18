import ArgumentParser
import DebounceCore
import EventOutput
import Simulation
import SystemPackage
import TraceFormat

/// `gpio-debounce generate`: a trace of a simulated bouncy button, in the replay format.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a trace of a simulated bouncy button (t_ns,level lines) for replay, tests and benchmarks.",
        // One of --presses and --edges is required: the usage says so (argument-parser's own would show both optional).
        usage: "gpio-debounce generate (--presses <count> | --edges <count>) [--seed <seed>] [--noise] [--active-low | --active-high] [-o <file>]")

    @Option(help: ArgumentHelp("Stop after this many presses (this or --edges is required).", valueName: "count"), transform: CountArgument.parse)
    var presses: Int?

    @Option(help: ArgumentHelp("Stop after the press-and-release cycle that reaches this many edges (this or --presses is required).", valueName: "count"), transform: CountArgument.parse)
    var edges: Int?

    @Option(help: "Seed of the simulated button; the same seed gives the same trace.")
    var seed: UInt64 = 1

    @Flag(help: "Add EMI spikes (2 per second, 50 ns to 2 µs).")
    var noise = false

    @Flag(exclusivity: .exclusive)
    var polarity: Polarity = .activeLow

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        switch (presses, edges) {
        case (nil, nil): throw ValidationError("Missing --presses <count> or --edges <count>: one of them says how long the trace is.")
        case (.some, .some): throw ValidationError("--presses and --edges are two ways to say how long the trace is: give one.")
        default: break
        }
    }

    func run() throws {
        // SIGINT and SIGTERM end the trace after the cycle being written: the file is put in place whole
        // (every press with its release) and the command exits 0, as every command does on a stop.
        let stop = try StopRequest()
        let target = try OutputTarget(path: output)
        let (cycles, stopSignal) = try write(into: target, stoppedBy: stop)
        try target.commit()
        if let stopSignal {
            printToStandardError("gpio-debounce generate: stopped by \(StopRequest.name(stopSignal)) after \(counted(cycles, "press", "presses")), each with its release\(output.map { ", in \($0)" } ?? "")")
        }
    }

    /// Writes the simulated button's cycles (a press and its release, each with its bounce) into
    /// `target` until `presses` or `edges` are written or `stop` is asked for: how many cycles, and the
    /// signal that stopped it.
    private func write(into target: OutputTarget, stoppedBy stop: StopRequest) throws -> (cycles: Int, stopSignal: Int32?) {
        var button = BouncyButton(
            profile: noise ? .noisy : .typical, seed: seed,
            activeLevel: polarity == .activeLow ? .activeLow : .activeHigh, presses: presses)
        var (cycles, written) = (0, 0)
        do {
            let writer = try TraceWriter(
                output: OutputBuffer(fileDescriptor: target.descriptor),
                comments: ["A simulated bouncy button: gpio-debounce generate --seed \(seed)\(noise ? " --noise" : "")"],
                initialLevel: button.initialLevel, atNs: 0)
            while let cycle = button.nextCycle() {
                for edge in cycle.edges { try writer.write(edge) }
                written += cycle.edges.count
                cycles += 1
                if let edges, written >= edges { break }
                // One read(2) of the signal descriptor per 64 cycles (a few thousand edges): a stop within
                // microseconds, at no measurable cost per edge.
                if cycles % 64 == 0, let signal = try stop.stopSignal() {
                    try writer.output.flush()
                    return (cycles, signal)
                }
            }
            try writer.output.flush()
        } catch let error as Errno {
            throw failure("cannot write the trace: \(error.description)", ExitStatus.ioError)
        }
        return (cycles, nil)
    }
}
