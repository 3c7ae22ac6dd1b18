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
    /// What to say when one of its own options was given (`--code`, for `--selector`): `watch`
    /// refuses it when this mode is not the one chosen; nil when none was given.
    var strayOptions: String? { get }
    /// Refuses its option's value, and what it cannot watch with `watch`'s other options (a
    /// selector: debouncing).
    func validate(with watch: WatchCommand) throws
    /// Watches until stopped (or `--num-events`, `--idle-timeout`), as `watch` is told.
    func watch(with watch: WatchCommand) throws
}

extension WatchMode {
    /// Its input with an article, as messages write it: `an encoder`.
    static var anInput: String { (input.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + input }
}

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
