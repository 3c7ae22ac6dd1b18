import ArgumentParser
import Assembly
import DebounceCore
import EventLoop
import EventOutput
import Inputs
import LineInput
import Pipeline
import Recording
import TraceFormat
import TraceInput

/// `replay --encoder A,B`: a recorded trace of an encoder's two lines through its decoder, in virtual
/// time; one rotate event per detent, as `watch --encoder` prints them.
struct EncoderReplay: ReplayMode {
    @Option(
        name: .customLong("encoder"),
        help: ArgumentHelp("Replay a rotary encoder's lines A,B: VCD channels (names or 0-based indices, e.g. D0,D1) or the text trace's line numbers (e.g. 0,1).", valueName: "A,B"))
    var lines: String?

    @OptionGroup var decoding: EncoderOptions

    static let help = """
        With --encoder A,B, the trace holds a rotary encoder's two lines (VCD channels by name or \
        0-based index, or the text format's line column: t_ns,line,level lines, each line's first \
        data line its initial level) and one rotate event is printed per detent, as watch --encoder does.
        """
    var isChosen: Bool { lines != nil }
    var strayOptions: String? { decoding.stray }

    func validate(with replay: ReplayCommand) throws {
        let parts = LineArgument.parts(lines ?? "")
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0] != parts[1] else {
            throw ValidationError("--encoder takes two different lines, A then B: VCD channels (--encoder D0,D1) or a text trace's line numbers (--encoder 0,1).")
        }
        if replay.config != nil || replay.channel != nil || replay.format == .vcd {
            throw ValidationError("--encoder replays the encoder's two lines as rotate events: leave out --config, --channel and --format vcd.")
        }
        if !replay.file.lowercased().hasSuffix(".vcd") {
            let numbers = parts.compactMap { Int($0) }.filter { (0...TraceReader.maximumLine).contains($0) }
            guard numbers.count == 2, numbers[0] != numbers[1] else {
                throw ValidationError("A text trace's lines are two different numbers from 0 to \(TraceReader.maximumLine) (its line column): --encoder 0,1.")
            }
        }
    }

    func replay(with replay: ReplayCommand) throws {
        let trace = try TraceFile.open(replay.file, lines: LineArgument.parts(lines ?? ""))
        let source: TraceEdgeSource
        do { source = try TraceEdgeSource(trace: trace) } catch { throw failure(error.description, TraceFile.exitStatus(of: error)) }
        let assembly = RunAssembly.trace(source)
        let output = OutputBuffer(fileDescriptor: .standardOutput)
        let printer = EventPrinter(
            writer: EventWriter(format: replay.format == .json ? .json : .text, output: output), lineFields: [.none, .none],
            printers: [0: EncoderPrinter(fields: .none)])
        let configuration = decoding.configuration
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(plan: PipelinePlan(lines: [.raw], encoders: [EncoderPlan(lineA: 0, lineB: 1, configuration: configuration)]), sinks: [printer], stop: .none)
        }
        try TraceFile.run(loop, output: output) { source.failure }
        if replay.format == .text {
            printToStandardError(Summary.detents(loop.pipeline.decoder(encoder: 0)))
        }
    }
}

extension Summary {
    /// What an encoder's decoder saw: detents each way, the position, changes and skipped states.
    static func detents(_ decoder: QuadratureDecoder) -> String {
        let statistics = decoder.statistics
        return "\(counted(statistics.detents, "detent")) (\(statistics.clockwise) cw, \(statistics.counterClockwise) ccw), position \(decoder.position) from \(counted(statistics.changes, "change")); \(counted(statistics.skips, "skipped state")) (\(statistics.inferredSkips) inferred, \(statistics.lostSkips) lost)"
    }
}
