import ArgumentParser

/// One kind's way of being watched (`watch --encoder A,B`): its options, what it refuses, and how it
/// runs. `WatchModes` lists them; without one chosen, `watch` watches its lines as buttons.
protocol WatchMode: ParsableArguments {
    /// Its option with its value's name, as messages write it: `--encoder A,B`.
    static var option: String { get }
    /// What its option names the lines of: `encoder`.
    static var input: String { get }
    /// What `--simulate` watches with its option, for the help: `with --encoder a simulated encoder turned`.
    static var simulated: String { get }
    /// Whether its option was given.
    var isChosen: Bool { get }
    /// What to say when one of its own options was given (`--steps-per-detent`, for `--encoder`): `watch`
    /// refuses it when this mode is not the one chosen; nil when none was given.
    var strayOptions: String? { get }
    /// Refuses its option's value, and what it cannot watch with `watch`'s other options (for some
    /// modes, the debounce options).
    func validate(with watch: WatchCommand) throws
    /// Watches until stopped (or `--num-events`, `--idle-timeout`), as `watch` is told.
    func watch(with watch: WatchCommand) throws
}

extension WatchMode {
    /// Its input with an article, as messages write it: `an encoder`.
    static var anInput: String { (input.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + input }
}
