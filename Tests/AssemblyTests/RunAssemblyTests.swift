import Assembly
import DebounceCore
import EventLoop
import Pipeline
import Simulation
import Testing

/// `RunAssembly`: the input chooses the clock, simulated lines are reported as the lines named, and
/// the loop it makes runs the stages to the sinks.
@Suite struct RunAssemblyTests {
    /// `17` as 17, `GPIO27` as 27 (a Pi's header offset), any other name as its position.
    @Test func simulatedLinesAreReportedAsTheLinesNamed() {
        let buttons = (0..<3).map { BouncyButton(seed: UInt64($0), presses: 1) }
        let assembly = RunAssembly.simulated(SimulatedLines(buttons: buttons), names: ["17", "GPIO27", "doorbell"], virtualTime: true)
        #expect(assembly.places == [17, 27, 2].map { RunAssembly.LinePlace(chip: "simulated", offset: $0) })
        #expect(assembly.clock.isVirtual)
        #expect(!RunAssembly.simulated(SimulatedLines(buttons: buttons), names: ["1", "2", "3"], virtualTime: false).clock.isVirtual)
    }

    /// A simulated button pressed three times, in virtual time: three presses and three releases
    /// reach the sink, and the run ends with the script.
    @Test func aVirtualTimeLoopRunsTheStagesToTheSinks() throws {
        let assembly = RunAssembly.simulated(SimulatedLines(buttons: [BouncyButton(seed: 3, presses: 3)]), names: ["0"], virtualTime: true)
        var kinds: [ButtonEvent.Kind] = []
        let sink = CallbackSink { output in
            if case .event(_, let event) = output { kinds.append(event.kind) }
        }
        let loop = try assembly.loop(plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration())]), sinks: [sink], stop: .none)
        #expect(try loop.run() == .endOfInput)
        #expect(kinds == [.press, .release, .press, .release, .press, .release])
    }
}
