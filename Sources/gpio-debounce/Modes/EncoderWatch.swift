import ArgumentParser
import Assembly
import DebounceCore
import EventLoop
import EventOutput
import Inputs
import LineInput
import Pipeline
import Simulation

/// `watch --encoder A,B`: a rotary encoder's two lines, raw, through its decoder; one event per detent.
struct EncoderWatch: WatchMode {
    @Option(
        name: .customLong("encoder"),
        help: ArgumentHelp("Watch a rotary encoder on lines A,B (offsets or names, e.g. 17,27 or GPIO17,GPIO27): one rotate event per detent, clockwise when A leads.", valueName: "A,B"))
    var lines: String?

    @OptionGroup var decoding: EncoderOptions

    static let option = "--encoder A,B"
    static let input = "encoder"
    static let simulated = "with --encoder a simulated encoder turned"
    var isChosen: Bool { lines != nil }
    var strayOptions: String? { decoding.stray }

    func validate(with watch: WatchCommand) throws {
        let parts = try LineArgument.parseList(lines ?? "")
        guard parts.count == 2, parts[0] != parts[1] else {
            throw ValidationError("--encoder takes two different lines, A then B, e.g. --encoder 17,27.")
        }
    }

    func watch(with watch: WatchCommand) throws {
        let names = try LineArgument.parseList(lines ?? "")
        let simulation = watch.simulation
        let signals = try signalDescriptor()
        guard
            let assembly = try simulation.simulate
                ? RunAssembly.simulated(
                    SimulatedLines(encoder: BouncyEncoder(seed: simulation.chosenSeed(), gestures: simulation.presses)), names: names,
                    virtualTime: simulation.virtualTime)
                : watch.pins(names, signals: signals)
        else { return }
        let places = assembly.places.compactMap { $0 }
        let configuration = decoding.configuration
        let fields = EventFields([.text("chip", places.first?.chip ?? ""), .integers("lines", places.map { Int64($0.offset) })])
        let printer = watch.output.printer(
            lineFields: places.map(\.fields), tallyField: .lostEvents, printsInitialStates: watch.initialState, printers: [0: EncoderPrinter(fields: fields)])
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(
                plan: PipelinePlan(lines: [.raw], encoders: [EncoderPlan(lineA: 0, lineB: 1, configuration: configuration)]),
                sinks: [printer] + watch.availabilityNotices, stop: .signals(signals), limits: watch.limits)
        }
        _ = try runToEnd(loop) {
            let lost = printer.tally(line: 0).lostEvents + printer.tally(line: 1).lostEvents
            printToStandardError(
                "\(places.first?.chip ?? "") lines \(places.map { String($0.offset) }.joined(separator: ",")): \(Summary.detents(loop.pipeline.decoder(encoder: 0))); \(counted(lost, "event")) lost by the kernel")
        }
    }
}
