import ArgumentParser
import DebounceCore

/// `--steps-per-detent N` and `--reverse`: how an encoder's lines are decoded, shared by the commands
/// that take `--encoder A,B` (`watch`, `replay`).
struct EncoderOptions: ParsableArguments {
    @Option(help: "With --encoder: transitions per detent: 4 (one detent per cycle: KY-040, EC11), 2 (detents at 11 and 00) or 1 (every transition).")
    var stepsPerDetent: Int = 4

    @Flag(help: "With --encoder: swap the directions (clockwise becomes counter-clockwise).")
    var reverse = false

    func validate() throws {
        guard EncoderConfiguration.StepsPerDetent(rawValue: stepsPerDetent) != nil else {
            throw ValidationError("--steps-per-detent must be 4 (one detent per cycle, most encoders), 2 or 1.")
        }
    }

    /// The decoder's configuration these options name.
    var configuration: EncoderConfiguration {
        EncoderConfiguration(stepsPerDetent: EncoderConfiguration.StepsPerDetent(rawValue: stepsPerDetent) ?? .four, reverse: reverse)
    }
}
