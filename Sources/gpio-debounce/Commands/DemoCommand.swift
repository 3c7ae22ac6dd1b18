import ArgumentParser
import Assembly
import DebounceCore
import EventLoop
import EventOutput
import LineInput
import LinuxSys
import Pipeline
import Recording
import Simulation
import SystemPackage

/// `gpio-debounce demo`: a bouncy button on the simulated line, so anyone can see the tool work without hardware.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Press a simulated bouncy button in real time and show raw edges against debounced events.",
        // argument-parser's own, for more than 12 options none of them required, is `demo <options>`,
        // which reads as if options were required.
        usage: "gpio-debounce demo [\(DemoModes.types.map { $0.flag }.joined(separator: " | "))] [<options>]",
        discussion: """
            No hardware needed. The simulated button bounces like a real one (about 1.5 ms of bounce per \
            press on average, pulses down to 100 ns, now and then tens of ms), and is pressed by a \
            simulated person every second or so. Every burst of raw edges should become exactly one event.
            """)

    @Option(help: "How many times the simulated person presses the button.", transform: CountArgument.parse)
    var presses: Int = 5

    @Option(help: "Seed of the simulated button; the same seed replays the same bounce. Default: a new one each run.")
    var seed: UInt64?

    @Flag(help: "Add EMI spikes (2 per second, 50 ns to 2 µs): none of them may become a press.")
    var noise = false

    @Option(help: ArgumentHelp("Lose this fraction of edges (0 to 1), as an overflowing kernel event queue does.", valueName: "fraction"))
    var drop: Double = 0

    @Flag(help: "Run in virtual time: no waiting, the whole demo at once.")
    var virtualTime = false

    @OptionGroup var modes: DemoModes

    @OptionGroup var debounce: DebounceOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (0...1).contains(drop) else { throw ValidationError("--drop must be a fraction from 0 to 1, e.g. 0.05.") }
        let chosen = modes.chosen.map { type(of: $0).flag }
        if chosen.count > 1 { throw ValidationError("\(chosen.joined(separator: " and ")) are \(chosen.count == 2 ? "two" : "\(chosen.count)") demos: choose one.") }
    }

    func run() throws {
        if let mode = modes.chosen.first { return try mode.demo(with: self) }
        let signals = try signalDescriptor()
        let seed = self.seed ?? UInt64(truncatingIfNeeded: MonotonicClock.nowNs)
        let configuration = debounce.configuration
        let button = BouncyButton(profile: noise ? .noisy : .typical, seed: seed, activeLevel: configuration.activeLevel, presses: presses)
        let line = SimulatedLines(buttons: [button], dropProbability: drop, seed: seed ^ 0x5EED)
        let out = OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0)
        let printer = EventPrinter(writer: output.writer(out), lineFields: [.none], tallyField: .rawEdges)
        let loop = try makeLoop { () throws(LineError) in
            try RunAssembly.simulated(line, names: ["0"], virtualTime: virtualTime).loop(
                plan: PipelinePlan(lines: [LinePlan(debounce: configuration)]), sinks: [printer], stop: .signals(signals))
        }
        if output.format == .text { try introduce(seed: seed, configuration: configuration, to: out) }
        let stop = try runToEnd(loop)
        if output.format == .text { try summarize(loop, stop: stop, of: button, on: line, to: out) }
    }

    /// What the demo shows, before its events.
    private func introduce(seed: UInt64, configuration: DebounceConfiguration, to out: OutputBuffer) throws {
        out.appendUTF8("gpio-debounce demo: a simulated bouncy button, no hardware needed (seed \(seed), \(counted(presses, "press", "presses")),")
        out.appendUTF8(" press \(configuration.press), release \(configuration.release)).")
        try writeOrFail(out)
        out.append("Each line is one debounced event and the raw edges it was made from.")
        try writeOrFail(out)
    }

    /// The physical presses played, the events they made from how many raw edges, and the edges lost.
    private func summarize(_ loop: EventLoop, stop: StopReason, of button: BouncyButton, on line: SimulatedLines, to out: OutputBuffer) throws {
        let statistics = loop.pipeline.statistics(line: 0) ?? DebounceStatistics()
        let played = stop == .endOfInput ? presses : Self.pressesBegun(by: loop.clock.nowNs, of: button)
        let physical = played == presses ? counted(presses, "physical press", "physical presses") : "\(played) of \(counted(presses, "physical press", "physical presses"))"
        out.appendUTF8("\(physical): \(statistics.presses) press and \(counted(statistics.releases, "release event")) from \(counted(line.deliveredEdges[0], "raw edge"))")
        if line.droppedEdges[0] > 0 {
            out.appendUTF8("; \(counted(line.droppedEdges[0], "edge")) lost, \(statistics.resyncCorrections) corrected by re-reading the line")
        }
        out.appendUTF8(" (\(stop == .endOfInput ? "done" : "stopped")).")
        try writeOrFail(out)
    }

    /// How many of `button`'s presses had begun (their first edge) by `timeNs` on the line's clock: what
    /// a demo stopped early has played. Replays the button's seeded script from its start; a press
    /// begun is counted even if its release had not come yet.
    static func pressesBegun(by timeNs: Int64, of button: BouncyButton) -> Int {
        var script = button, begun = 0
        while let cycle = script.nextCycle(), cycle.press.firstEdgeNs <= timeNs { begun += 1 }
        return begun
    }

    func writeOrFail(_ out: OutputBuffer) throws {
        do { try out.endLine() } catch { throw failure("cannot write the demo: \(error.description)", ExitStatus.ioError) }
    }
}
