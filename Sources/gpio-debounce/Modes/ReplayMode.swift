import ArgumentParser

/// One kind's replay of a trace of several lines (`replay --encoder A,B`): its option, what it
/// refuses, and how it plays the trace. `ReplayModes` lists them; without one chosen, `replay` plays
/// a trace of one line.
protocol ReplayMode: ParsableArguments {
    /// What `replay --help` says of it.
    static var help: String { get }
    /// Whether its option was given.
    var isChosen: Bool { get }
    /// Refuses what it cannot replay with `replay`'s other options.
    func validate(with replay: ReplayCommand) throws
    /// Plays `replay`'s trace through the kind's stages and prints its events.
    func replay(with replay: ReplayCommand) throws
}

/// The replays of several lines, one per kind that has one: the one list of them.
struct ReplayModes: ParsableArguments {
    @OptionGroup var encoder: EncoderReplay

    /// Their types, in the same order.
    static let types: [any ReplayMode.Type] = [EncoderReplay.self]

    /// The mode chosen, if any.
    var chosen: (any ReplayMode)? { ([encoder] as [any ReplayMode]).first(where: \.isChosen) }
}
