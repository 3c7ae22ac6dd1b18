import ArgumentParser
import Assembly
import DebounceCore
import EventLoop
import EventOutput
import Inputs
import LineInput
import LinuxSys
import Pipeline
import Recording
import Simulation

/// `demo --encoder`: a simulated bouncy rotary encoder turned in runs, fast flicks, reversals and
/// jiggles: its detents as they are reported, and at the end the detents it was turned by.
struct EncoderDemo: DemoMode {
    @Flag(
        name: .customLong("encoder"),
        help: "Turn a simulated bouncy rotary encoder instead: runs, fast flicks, reversals and jiggles; --presses counts the turns.")
    var isChosen = false

    static let flag = "--encoder"

    func demo(with demo: DemoCommand) throws {
        let (presses, drop, output) = (demo.presses, demo.drop, demo.output)
        let signals = try signalDescriptor()
        let seed = demo.seed ?? UInt64(truncatingIfNeeded: MonotonicClock.nowNs)
        var truth = BouncyEncoder(seed: seed, gestures: presses, recordsDetents: true)
        while truth.next() != nil {}
        let detents = truth.takeDetents()
        let out = OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0)
        let printer = EventPrinter(writer: output.writer(out), lineFields: [.none, .none], printers: [0: EncoderPrinter(fields: .none)])
        let assembly = RunAssembly.simulated(
            SimulatedLines(encoder: BouncyEncoder(seed: seed, gestures: presses), dropProbability: drop, seed: seed ^ 0x5EED), names: ["A", "B"],
            virtualTime: demo.virtualTime)
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(plan: PipelinePlan(lines: [.raw], encoders: [EncoderPlan(lineA: 0, lineB: 1)]), sinks: [printer], stop: .signals(signals))
        }
        if output.format == .text {
            out.appendUTF8("gpio-debounce demo --encoder: a simulated bouncy rotary encoder (KY-040 style, 4 transitions per detent), no hardware needed (seed \(seed), \(counted(presses, "turn")): runs, flicks, reversals, jiggles).")
            try demo.writeOrFail(out)
        }
        let stop = try runToEnd(loop)
        if output.format == .text {
            let clockwise = detents.count { $0.clockwise }
            let statistics = loop.pipeline.decoder(encoder: 0).statistics
            out.appendUTF8("\(counted(detents.count, "detent")) turned (\(clockwise) cw, \(detents.count - clockwise) ccw): \(statistics.clockwise) cw and \(statistics.counterClockwise) ccw reported, position \(loop.pipeline.decoder(encoder: 0).position), from \(counted(statistics.changes, "change"))")
            out.appendUTF8(" (\(stop == .endOfInput ? "done" : "stopped")).")
            try demo.writeOrFail(out)
        }
    }
}
