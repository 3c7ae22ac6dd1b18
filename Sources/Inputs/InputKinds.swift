import Assembly
import ConfigurationFile
import KeptState
import GPIODBackend
import InputModel
import Simulation

/// The registry of the input kinds: each folder of this module is a kind (`Button/`, `Encoder/`,
/// `Sensor/` for contacts, `Counter/`, `Keypad/`), and `kinds` is the one place that lists them.
/// Each kind answers for its inputs through `InputKind`: it plans its part of the run (`plan`: its
/// stages, actions and keys), presents its inputs (`presenters`: what the printer, the actions, the
/// keyboard and MQTT take), says what `check` reports of them (`checkLines`), what `run --simulate`
/// plays on their lines (`simulatedInputs`), the sources of those that are sources of their own
/// (`simulatedSources`, `requestedSources`: a keypad's matrix), what the state directory keeps of
/// them (`kept`) and how one of one line takes a recorded trace (`replayTarget`). The layers that use
/// them name no kind.
package enum InputKinds {
    /// Where a run line is, as events print it: its chip's name (`gpiochip0`, `simulated`) and offset.
    package typealias Place = (chip: String, offset: Int)
    /// Where `line` is by `place`; nowhere (no chip, offset 0) when no line is open.
    static func at(_ line: LineID, _ place: ((LineID) -> Place)?) -> Place { place?(line) ?? (chip: "", offset: 0) }
    /// A source of an input's own (a keypad's scanned matrix), and where each of its lines is.
    package typealias OwnSource = (source: RunAssembly.NamedSource, places: [RunAssembly.LinePlace])

    /// The kinds, each by its settings' type, in the run's order: the one list of them.
    static let kinds: [any InputKind.Type] = [
        ButtonConfiguration.self, EncoderSettings.self, SensorSettings.self, CounterSettings.self, KeypadSettings.self, SelectorSettings.self,
    ]

    /// The kinds as the configuration's loader reads them (`ConfigurationLoader.load`): every input it
    /// reads is of one of `kinds`.
    package static let sections = InputSections(kinds.map { $0 })

    /// Input `entry`'s kind, with its settings: the roster holds each input's settings as what the
    /// configuration asks of them (`InputSettings`); the loader reads only `kinds`, each an
    /// `InputKind` (a test asserts it of a configuration of every kind), so one that is not is a
    /// mistake of the build, never of a user.
    static func kind(of entry: Roster.Input) -> any InputKind {
        guard let kind = entry.settings as? any InputKind else {
            preconditionFailure("\(type(of: entry.settings)) is no InputKind: conform it in its kind's folder and list it in InputKinds.kinds")
        }
        return kind
    }

    /// Each input of `roster`, in the run's order, as the outside sees it. `place` says where each
    /// line is (nil when no line is open, as for `--remove-discovery`). An input starts from
    /// `starts[input]` (its index in the roster) where given: a meter's total, a position; else from 0
    /// and its configuration's start.
    package static func presenters(of roster: Roster, place: ((LineID) -> Place)?, starts: [Int: Int64] = [:]) -> [any InputPresenter] {
        roster.inputs.enumerated().map { input, entry in kind(of: entry).presenter(of: entry, input: input, place: place, start: starts[input]) }
    }

    /// What `check` says of each input of `roster`, in the run's order, each kind in its own words
    /// (`<Kind>Settings+Check.swift`), its lines where `places` says; a counter says how often it is
    /// published when the configuration `publishes` over MQTT.
    package static func checkLines(of roster: Roster, places: some CheckedPlaces, publishes: Bool) -> [String] {
        roster.inputs.indices.flatMap { input -> [String] in
            let entry = roster.inputs[input]
            return kind(of: entry).checkLines(of: entry, firstPin: roster.firstPin(of: input), places: places, publishes: publishes)
        }
    }

    /// What `run --simulate` plays on the pins of `roster`'s inputs, in the run's line order: each
    /// kind its own (`<Kind>Settings+Simulation.swift`), an input the `index`-th of its kind, so that
    /// it plays the same whatever else the configuration lists; `seed` the simulation's, each input
    /// `presses` times (nil: forever). An input that is a source of its own (a keypad) plays none
    /// here (`simulatedSources`).
    package static func simulatedInputs(of roster: Roster, seed: UInt64, presses: Int?) -> [SimulatedInput] {
        zip(roster.inputs, indicesWithinKind(of: roster)).flatMap { input, index in kind(of: input).simulated(index: index, seed: seed, presses: presses) }
    }

    /// Each of `roster`'s inputs' index among the inputs of its kind, in the roster's order: what a
    /// simulation seeds it by, so that it plays the same whatever else the configuration lists.
    static func indicesWithinKind(of roster: Roster) -> [UInt64] {
        var ofKind: [InputKindID: UInt64] = [:]
        return roster.inputs.map { input in
            defer { ofKind[input.id.kind, default: 0] += 1 }
            return ofKind[input.id.kind, default: 0]
        }
    }

    /// Input `entry`'s part of `plan` (`input` its index in the roster), as its kind plans it
    /// (`<Kind>…+Plan.swift`): its lines' stages, its own (a decoder, a code entry), its actions and
    /// keys; `groupNames` the groups, sorted, and `starts` each input's kept value, by its input.
    static func plan(_ entry: Roster.Input, input: Int, groupNames: [String], starts: [Int: Int64], into plan: inout DaemonPlan) {
        kind(of: entry).plan(entry, input: input, groupNames: groupNames, start: starts[input], into: &plan)
    }

    /// The sources of `roster`'s inputs that are sources of their own (a keypad: a matrix scanned, its
    /// keys lines of the run after the pins), simulated (`seed` the simulation's, `presses` each, the
    /// `index`-th of its kind, from `startNs`), with where each of their lines is.
    package static func simulatedSources(
        of roster: Roster, seed: UInt64, presses: Int?, startNs: Int64
    ) -> (sources: [RunAssembly.NamedSource], places: [RunAssembly.LinePlace]) {
        var made: (sources: [RunAssembly.NamedSource], places: [RunAssembly.LinePlace]) = ([], [])
        for (input, index) in zip(roster.inputs, indicesWithinKind(of: roster)) {
            guard let own = kind(of: input).simulatedSource(index: index, seed: seed, presses: presses, startNs: startNs) else { continue }
            made.sources.append(own.source)
            made.places += own.places
        }
        return made
    }

    /// The same on this machine's pins: `pins` are the pins of those inputs as found, in `Roster.pins`
    /// order (each input's in turn), requested.
    package static func requestedSources(
        of roster: Roster, pins: [(chip: GPIOChip, offset: Int)]
    ) throws(GPIOError) -> (sources: [RunAssembly.NamedSource], places: [RunAssembly.LinePlace]) {
        var made: (sources: [RunAssembly.NamedSource], places: [RunAssembly.LinePlace]) = ([], [])
        var next = 0
        for (index, input) in roster.inputs.enumerated() {
            let kind = kind(of: input)
            guard kind.isSourceOfItsOwn else { continue }
            let count = roster.pins(of: index).count
            let upper = min(pins.count, next + count)
            next += count
            guard let own = try kind.requestedSource(pins: next - count < upper ? Array(pins[(next - count)..<upper]) : []) else { continue }
            made.sources.append(own.source)
            made.places += own.places
        }
        return made
    }

    /// What the state directory keeps of `roster`'s inputs, in the run's order, as each kind says
    /// (`<Kind>Settings+Kept.swift`: a meter's total, a restored encoder's position).
    package static func kept(of roster: Roster) -> [StateStore.Entry] {
        roster.inputs.enumerated().compactMap { input, entry in kind(of: entry).kept(input: input) }
    }

    /// The kinds' sections as a help text lists them: `buttons, encoders, … and selectors`.
    package static var sectionsInWords: String {
        let names = sections.names
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }

    /// What `run --simulate` drives every kind's inputs with (`InputKind.simulationHelp`), in the run's order.
    package static var simulationHelp: String { kinds.map { $0.simulationHelp }.joined(separator: ", ") }

    /// Where each state file keeps what, in the kinds' order, for a help text: "the encoders'
    /// positions in `positions`, …".
    package static var stateFilesInWords: String {
        stateFiles.map { "\($0.contents) in `\($0.fileName)`" }.joined(separator: ", ")
    }

    /// What `gpio-debounce reset` does to each kind that has something to reset (`InputKind.resetHelp`), one a line.
    package static var resetHelp: [String] { kinds.compactMap { $0.resetHelp } }

    /// Every file of the state directory, as the kinds declare them (`StateFile.counters`, `.positions`).
    package static let stateFiles: [StateFile] = kinds.flatMap { $0.stateFiles }

    /// How `entry` takes a recorded trace of one line (`replay --config`), as its kind says
    /// (`<Kind>Settings+Replay.swift`); nil for an input of several lines.
    package static func replayTarget(of entry: Roster.Input) -> ReplayTarget? { kind(of: entry).replayTarget }

    /// What `replay --config` does through each kind of one line (`InputKind.replayHelp`), in the run's order.
    package static var replayHelp: [String] { kinds.compactMap { $0.replayHelp } }
}
