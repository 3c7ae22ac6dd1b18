import Assembly
import ConfigurationFile
import KeptState
import GPIODBackend
import InputModel
import Simulation

/// What a kind of input answers for each of its inputs, from its settings: the one interface the
/// registry (`InputKinds`) asks every input through. Each kind conforms in its folder
/// (`<Kind>/<Settings>+Kind.swift`), answering from the files beside it (`+Plan`, `+Check`,
/// `+Simulation`, ...). What a kind has nothing to say to has a default: no simulated lines, no
/// source of its own, nothing kept, no replay.
package protocol InputKind: InputSettings {
    /// Input `entry` (`input` its index in the roster) as the printer, the actions, the keyboard and
    /// MQTT see it; `place` says where each line is (nil when none is open), `start` is its kept or
    /// carried value (a meter's total, a position), if any.
    func presenter(of entry: Roster.Input, input: Int, place: ((LineID) -> InputKinds.Place)?, start: Int64?) -> any InputPresenter

    /// Input `entry`'s part of `plan`: its lines' stages, its own (a decoder, a code entry), its
    /// actions and keys; `groupNames` the groups, sorted; `start` its kept value, if any.
    func plan(_ entry: Roster.Input, input: Int, groupNames: [String], start: Int64?, into plan: inout DaemonPlan)

    /// What `check` says of input `entry`, its lines where `places` says, its first pin the
    /// `firstPin`-th of the roster's (`Roster.pins`); `publishes` when the configuration has MQTT.
    func checkLines(of entry: Roster.Input, firstPin: Int, places: some CheckedPlaces, publishes: Bool) -> [String]

    /// What `run --simulate` plays on its pins, the `index`-th input of its kind (so that it plays the
    /// same whatever else the configuration lists); `seed` the simulation's, `presses` each (nil: forever).
    func simulated(index: UInt64, seed: UInt64, presses: Int?) -> [SimulatedInput]

    /// Whether its lines come from a source of its own (a keypad's scanned matrix), made by
    /// `simulatedSource` or `requestedSource`, rather than from its pins' edges.
    var isSourceOfItsOwn: Bool { get }

    /// Its source of its own, simulated: the `index`-th of its kind, from `startNs` (nanoseconds).
    func simulatedSource(index: UInt64, seed: UInt64, presses: Int?, startNs: Int64) -> InputKinds.OwnSource?

    /// Its source of its own on this machine's `pins` (its pins as found, in `Roster.pins` order), requested.
    func requestedSource(pins: [(chip: GPIOChip, offset: Int)]) throws(GPIOError) -> InputKinds.OwnSource?

    /// What the state directory keeps of it, input `input` (its index in the roster): its value and the
    /// file it is kept in; nil when it keeps none.
    func kept(input: Int) -> StateStore.Entry?

    /// The state directory's files its inputs keep values in (`StateFile`, declared in its folder).
    static var stateFiles: [StateFile] { get }

    /// What `run --simulate` drives each input of this kind with, for its help: `a bouncy button per button`.
    static var simulationHelp: String { get }

    /// What `gpio-debounce reset` does to an input of this kind, for its help (what it sets, in which unit);
    /// nil for a kind with nothing to reset.
    static var resetHelp: String? { get }

    /// How it takes a recorded trace of one line (`replay --config`); nil for an input of several lines.
    var replayTarget: ReplayTarget? { get }

    /// What `replay --config` does with a trace through an input of this kind, for its help: `a
    /// button's debounce, …`; nil for a kind of several lines.
    static var replayHelp: String? { get }
}

extension InputKind {
    package func simulated(index: UInt64, seed: UInt64, presses: Int?) -> [SimulatedInput] { [] }
    package var isSourceOfItsOwn: Bool { false }
    package func simulatedSource(index: UInt64, seed: UInt64, presses: Int?, startNs: Int64) -> InputKinds.OwnSource? { nil }
    package func requestedSource(pins: [(chip: GPIOChip, offset: Int)]) throws(GPIOError) -> InputKinds.OwnSource? { nil }
    package func kept(input: Int) -> StateStore.Entry? { nil }
    package static var stateFiles: [StateFile] { [] }
    package static var resetHelp: String? { nil }
    package var replayTarget: ReplayTarget? { nil }
    package static var replayHelp: String? { nil }
}
