import ArgumentParser

/// One kind's replay of a trace of several lines (`replay --encoder A,B`): its option, what it
/// refuses, and how it plays the trace. `ReplayModes` lists them; without one chosen, `replay` plays
/// a trace of one line.
protocol ReplayMode: ParsableArguments {
    /// What `replay --help` says of it.
    static var help: String { get }
    /// Whether its option was given.
    var isChosen: Bool { get }
    /// What to say when one of its own options was given (`--reverse`, for `--encoder`): `replay`
    /// refuses it when this mode is not the one chosen; nil when none was given.
    var strayOptions: String? { get }
    /// Refuses what it cannot replay with `replay`'s other options.
    func validate(with replay: ReplayCommand) throws
    /// Plays `replay`'s trace through the kind's stages and prints its events.
    func replay(with replay: ReplayCommand) throws
}
