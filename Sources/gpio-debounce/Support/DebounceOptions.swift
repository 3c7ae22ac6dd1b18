import ArgumentParser
import DebounceCore

/// Which raw level means pressed, as flags like gpiomon's `--active-low`.
enum Polarity: String, EnumerableFlag {
    case activeLow, activeHigh

    static func help(for value: Polarity) -> ArgumentHelp? {
        switch value {
        case .activeLow: "Pressed reads 0: button to ground with a pull-up (default)."
        case .activeHigh: "Pressed reads 1: button to the supply with a pull-down."
        }
    }
}

/// The options every command that debounces shares.
struct DebounceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Strategy for both press and release: defer:DURATION (wait until stable), eager:DURATION (report at once, then lock out) or eager:DURATION,glitch:DURATION. Durations: 10ms, 500us, 1s, 2min, 1h (at most 1h), always with a unit.",
            valueName: "strategy"),
        transform: { try DebounceStrategy(parsing: $0) })
    var debounce: DebounceStrategy = DebounceConfiguration.defaultStrategy

    @Option(help: ArgumentHelp("Strategy for presses only (overrides --debounce).", valueName: "strategy"),
            transform: { try DebounceStrategy(parsing: $0) })
    var press: DebounceStrategy?

    @Option(help: ArgumentHelp("Strategy for releases only (overrides --debounce).", valueName: "strategy"),
            transform: { try DebounceStrategy(parsing: $0) })
    var release: DebounceStrategy?

    @Flag(exclusivity: .exclusive)
    var polarity: Polarity = .activeLow

    var configuration: DebounceConfiguration {
        DebounceConfiguration(
            press: press ?? debounce, release: release ?? debounce,
            activeLevel: polarity == .activeLow ? .activeLow : .activeHigh)
    }
}

/// `--format text|json`.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: text (for people) or json (one object per line, for pipes).")
    var format: OutputFormat = .text
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
