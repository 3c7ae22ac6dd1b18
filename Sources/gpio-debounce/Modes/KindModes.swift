import ArgumentParser

// The command line's registry of the kinds: each command's modes, one list per command. A kind's modes
// are files of their own in this folder (`<Kind>Watch`, `<Kind>Demo`, …), each listed here once.

/// The watch modes of the kinds that have one, the one list of them: their options appear in
/// `watch --help` in this order.
struct WatchModes: ParsableArguments {
    @OptionGroup var encoder: EncoderWatch
    @OptionGroup var keypad: KeypadWatch
    @OptionGroup var selector: SelectorWatch

    /// Their types, in the same order.
    static let types: [any WatchMode.Type] = [EncoderWatch.self, KeypadWatch.self, SelectorWatch.self]

    /// What `--simulate` watches with each mode: `with --encoder a simulated encoder turned, …`.
    static var simulationHelp: String { types.map { $0.simulated }.joined(separator: ", ") }

    /// Every mode, in the order `validate` asks them: when several are chosen, the first one's
    /// message is the one given.
    var all: [any WatchMode] { [selector, keypad, encoder] }

    /// The modes chosen (at most one may be).
    var chosen: [any WatchMode] { all.filter(\.isChosen) }
}

/// The demos of the kinds that have one, the one list of them: their flags appear in `demo --help`
/// in this order.
struct DemoModes: ParsableArguments {
    @OptionGroup var encoder: EncoderDemo
    @OptionGroup var keypad: KeypadDemo

    /// Their types, in the same order.
    static let types: [any DemoMode.Type] = [EncoderDemo.self, KeypadDemo.self]

    /// The modes chosen (at most one may be), as messages name them.
    var chosen: [any DemoMode] { ([keypad, encoder] as [any DemoMode]).filter(\.isChosen) }
}

/// The recordings of several lines, one per kind that has one: the one list of them.
struct RecordModes: ParsableArguments {
    @OptionGroup var encoder: EncoderRecording

    /// Their types, in the same order.
    static let types: [any RecordMode.Type] = [EncoderRecording.self]

    /// The mode chosen, if any.
    var chosen: (any RecordMode)? { ([encoder] as [any RecordMode]).first(where: \.isChosen) }
}

/// The replays of several lines, one per kind that has one: the one list of them.
struct ReplayModes: ParsableArguments {
    @OptionGroup var encoder: EncoderReplay

    /// Their types, in the same order.
    static let types: [any ReplayMode.Type] = [EncoderReplay.self]

    /// Every mode.
    var all: [any ReplayMode] { [encoder] }

    /// The mode chosen, if any.
    var chosen: (any ReplayMode)? { all.first(where: \.isChosen) }
}
