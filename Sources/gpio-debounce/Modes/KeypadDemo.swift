import ArgumentParser
import Assembly
import ConfigurationFile
import DebounceCore
import EventLoop
import EventOutput
import Inputs
import Keypads
import LineInput
import LinuxSys
import Pipeline
import Recording
import Simulation

/// `demo --keypad`: a simulated person typing on a 4×4 membrane keypad with no diodes, scanned as a
/// real one is: every key typed should be one press and one release.
struct KeypadDemo: DemoMode {
    @Flag(
        name: .customLong("keypad"),
        help: "Type on a simulated 4×4 matrix keypad instead: each key bounces, and the keypad is scanned as a real one is; --presses counts the keys.")
    var isChosen = false

    static let flag = "--keypad"

    func demo(with demo: DemoCommand) throws {
        let (presses, output) = (demo.presses, demo.output)
        let signals = try signalDescriptor()
        let seed = demo.seed ?? UInt64(truncatingIfNeeded: MonotonicClock.nowNs)
        let matrix = MatrixConfiguration(rows: 4, columns: 4)
        let layout = KeypadSettings.defaultLayout(rows: 4, columns: 4)
        let keys = Array(layout.joined())
        let typing = SimulatedTyping(layout: layout, code: nil, seed: seed, presses: presses, startNs: 0)
        let source = KeypadSource.simulated(matrix, keyEdges: typing.keyEdges, startNs: 0)
        let out = OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0)
        let printer = EventPrinter(writer: output.writer(out), lineFields: keys.map { EventFields.key(String($0), keypad: "demo") })
        let assembly = RunAssembly.inputSources(
            [RunAssembly.NamedSource(name: "demo", source: source)], places: keys.map { _ in RunAssembly.LinePlace(chip: "simulated", offset: 0) }, clock: demo.virtualTime ? .virtual() : .realTime())
        let configuration = demo.debounce.configuration
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(plan: PipelinePlan(lines: [LinePlan(debounce: configuration)]), sinks: [printer], stop: .signals(signals))
        }
        if output.format == .text {
            out.appendUTF8("gpio-debounce demo --keypad: a simulated 4×4 keypad with no diodes, no hardware needed (seed \(seed), \(counted(presses, "key")) typed: \(String(typing.typed.map { keys[$0] }))).")
            try demo.writeOrFail(out)
        }
        let stop = try runToEnd(loop)
        if output.format == .text {
            let presses = (0..<matrix.keyCount).reduce(0) { $0 + (loop.pipeline.statistics(line: $1)?.presses ?? 0) }
            out.appendUTF8("\(counted(typing.typed.count, "key")) typed: \(counted(presses, "press", "presses")) reported from \(counted(source.scans.all, "scan")) (\(stop == .endOfInput ? "done" : "stopped")).")
            try demo.writeOrFail(out)
        }
    }
}
