import ArgumentParser
import DebounceCore

/// `--steps-per-detent N` and `--reverse`: how an encoder's lines are decoded, shared by the commands
/// that take `--encoder A,B` (`watch`, `replay`).
struct EncoderOptions: ParsableArguments {
    @Option(help: "With --encoder: transitions per detent: 4 (one detent per cycle: KY-040, EC11; the default), 2 (detents at 11 and 00) or 1 (every transition).")
    var stepsPerDetent: Int?

    @Flag(help: "With --encoder: swap the directions (cw becomes ccw).")
    var reverse = false

    func validate() throws {
        if let stepsPerDetent, EncoderConfiguration.StepsPerDetent(rawValue: stepsPerDetent) == nil {
            throw ValidationError("--steps-per-detent must be 4 (one detent per cycle, most encoders), 2 or 1.")
        }
    }

    /// Whether either option was given.
    var isGiven: Bool { stepsPerDetent != nil || reverse }

    /// What a command without `--encoder` says when either option was given.
    var stray: String? {
        isGiven ? "--steps-per-detent and --reverse say how --encoder decodes an encoder's lines: add --encoder A,B." : nil
    }

    /// The decoder's configuration these options name.
    var configuration: EncoderConfiguration {
        EncoderConfiguration(stepsPerDetent: stepsPerDetent.flatMap(EncoderConfiguration.StepsPerDetent.init(rawValue:)) ?? .four, reverse: reverse)
    }
}
