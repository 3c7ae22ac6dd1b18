import ArgumentParser
import Simulation

/// `record --encoder A,B`: both lines of a rotary encoder, text as `t_ns,line,level` lines (A is line
/// 0, B line 1), VCD as two channels A and B.
struct EncoderRecording: RecordMode {
    @Option(
        name: .customLong("encoder"),
        help: ArgumentHelp("Record a rotary encoder's two lines A,B (offsets or names, e.g. 17,27): text with a line column, or VCD channels A and B.", valueName: "A,B"))
    var lines: String?

    static let option = "--encoder A,B"
    static let help = """
        With --encoder A,B, both lines of a rotary encoder are recorded: text as t_ns,line,level lines \
        (A is line 0, B line 1), VCD as two channels A and B; replay it with `gpio-debounce replay FILE \
        --encoder 0,1` (text) or `--encoder A,B` (VCD).
        """
    static let simulated = "with --encoder a simulated encoder"
    var isChosen: Bool { lines != nil }
    var signals: [String] { ["A", "B"] }

    func lineNames() throws -> [String] { try LineArgument.parseList(lines ?? "") }

    func simulatedLines(seed: UInt64, presses: Int?) -> (SimulatedLines, name: String) {
        (SimulatedLines(encoder: BouncyEncoder(seed: seed, gestures: presses)), "simulated encoder (seed \(seed)), A and B")
    }

    func validate(with record: RecordCommand) throws {
        let parts = try lineNames()
        guard parts.count == 2, parts[0] != parts[1] else {
            throw ValidationError("--encoder takes two different lines, A then B, e.g. --encoder 17,27.")
        }
        if record.line != nil { throw ValidationError("\(Self.option) names the lines to record: leave out the line argument.") }
        if record.drop > 0 { throw ValidationError("--drop applies to a recording of one line, not to \(Self.option).") }
    }
}
