import Assembly
import ConfigurationFile
import CounterState
import GPIODBackend
import InputModel
import Simulation

/// The registry of the input kinds: each folder of this module is a kind (`Button/`, `Encoder/`,
/// `Sensor/` for contacts, `Counter/`, `Keypad/`), and this is the one place that lists them, one
/// switch per question. Each kind plans its part of the run (`plan`: its stages, actions and keys),
/// presents its inputs (`presenters`: what the printer, the actions, the keyboard and MQTT take), says
/// what `check` reports of them (`checkLines`), what `run --simulate` plays on their lines
/// (`simulatedInputs`), the sources of those that are sources of their own (`simulatedSources`,
/// `requestedSources`: a keypad's matrix), what the state directory keeps of them (`kept`) and how
/// one of one line takes a recorded trace (`replayTarget`). The layers that use them name no kind.
package enum InputKinds {
    /// Where a run line is, as events print it: its chip's name (`gpiochip0`, `simulated`) and offset.
    package typealias Place = (chip: String, offset: Int)

    /// Each input of `roster`, in the run's order, as the outside sees it. `place` says where each
    /// line is (nil when no line is open, as for `--remove-discovery`). An input starts from
    /// `starts[input]` (its index in the roster) where given: a meter's total, a position; else from 0
    /// and its configuration's start.
    package static func presenters(of roster: Roster, place: ((LineID) -> Place)?, starts: [Int: Int64] = [:]) -> [any InputPresenter] {
        func at(_ line: LineID) -> Place { place?(line) ?? (chip: "", offset: 0) }
        return roster.inputs.enumerated().map { input, entry -> any InputPresenter in
            switch entry.kind {
            case .button(let button):
                let line = entry.lines[0]
                return ButtonPresenter(
                    name: entry.name, input: input, chip: at(line).chip, line: at(line).offset, lineIndex: line.index, configuration: button.gestures)
            case .encoder(let encoder):
                let (a, b) = (at(entry.lines[0]), at(entry.lines[1]))
                return EncoderPresenter(
                    name: entry.name, input: input, chip: a.chip, lines: place == nil ? [] : [a.offset, b.offset],
                    lineIndices: [entry.lines[0].index, entry.lines[1].index], startPosition: starts[input].map(Int.init) ?? encoder.configuration.clamped(0))
            case .sensor(let sensor):
                let line = entry.lines[0]
                return SensorPresenter(
                    name: entry.name, input: input, chip: at(line).chip, line: at(line).offset, lineIndex: line.index, deviceClass: sensor.deviceClass)
            case .counter(let counter):
                let line = entry.lines[0]
                return CounterPresenter(
                    name: entry.name, input: input, chip: at(line).chip, line: at(line).offset, lineIndex: line.index, perUnit: counter.perUnit, unit: counter.unit,
                    deviceClass: counter.deviceClass, startTotal: starts[input] ?? 0,
                    publishIntervalNs: counter.publishIntervalNs, rateUnit: counter.rateUnit, rateDeviceClass: counter.rateDeviceClass)
            case .keypad(let keypad):
                // Its keys are lines of the run (row by row), whatever `place` says.
                return KeypadPresenter(
                    name: entry.name, input: input, keys: keypad.layout.flatMap { $0 }, lineIndices: entry.lines.map(\.index), places: entry.lines.map(at),
                    collectsCodes: keypad.code != nil, publishesCode: keypad.publishCode, namesKey: keypad.namesKey)
            }
        }
    }
}

extension InputKinds {
    /// What `check` says of each input of `roster`, in the run's order, each kind in its own words
    /// (`<Kind>Settings+Check.swift`), its lines where `places` says; a counter says how often it is
    /// published when the configuration `publishes` over MQTT.
    package static func checkLines(of roster: Roster, places: some CheckedPlaces, publishes: Bool) -> [String] {
        var firstPin = 0
        return roster.inputs.indices.flatMap { input -> [String] in
            let entry = roster.inputs[input]
            defer { firstPin += roster.pins(of: input).count }
            switch entry.kind {
            case .button(let button): return button.checkLines(line: entry.lines[0], places: places)
            case .encoder(let encoder):
                return encoder.checkLines(lineA: entry.lines[0], lineB: entry.lines[1], resetLine: entry.lines.count > 2 ? entry.lines[2] : nil, places: places)
            case .sensor(let sensor): return sensor.checkLines(line: entry.lines[0], places: places)
            case .counter(let counter): return counter.checkLines(line: entry.lines[0], places: places, publishes: publishes)
            case .keypad(let keypad): return keypad.checkLines(firstPin: firstPin, places: places)
            }
        }
    }
}

extension InputKinds {
    /// What `run --simulate` plays on the pins of `roster`'s inputs, in the run's line order: each
    /// kind its own (`<Kind>Settings+Simulation.swift`), an input the `index`-th of its kind, so that
    /// it plays the same whatever else the configuration lists; `seed` the simulation's, each input
    /// `presses` times (nil: forever). A keypad plays none here: its keys are a matrix's
    /// (`SimulatedTyping`), a source of its own.
    package static func simulatedInputs(of roster: Roster, seed: UInt64, presses: Int?) -> [SimulatedInput] {
        var ofKind: [InputKindID: UInt64] = [:]
        return roster.inputs.flatMap { input -> [SimulatedInput] in
            let index = ofKind[input.id.kind, default: 0]
            ofKind[input.id.kind] = index + 1
            switch input.kind {
            case .button(let button): return button.simulated(index: index, seed: seed, presses: presses)
            case .encoder(let encoder): return encoder.simulated(index: index, seed: seed, presses: presses)
            case .sensor(let sensor): return sensor.simulated(index: index, seed: seed, presses: presses)
            case .counter(let counter): return counter.simulated(index: index, seed: seed, presses: presses)
            case .keypad: return []
            }
        }
    }
}

extension InputKinds {
    /// Input `entry`'s part of `plan` (`input` its index in the roster), as its kind plans it
    /// (`<Kind>…+Plan.swift`): its lines' stages, its own (a decoder, a code entry), its actions and
    /// keys; `groupNames` the groups, sorted, and `starts` each input's kept value, by its input.
    static func plan(_ entry: Roster.Input, input: Int, groupNames: [String], starts: [Int: Int64], into plan: inout DaemonPlan) {
        switch entry.kind {
        case .button(let button): button.plan(input: input, line: entry.lines[0], groupNames: groupNames, into: &plan)
        case .encoder(let encoder): encoder.plan(input: input, lines: entry.lines, start: starts[input], into: &plan)
        case .sensor(let sensor): sensor.plan(input: input, line: entry.lines[0], into: &plan)
        case .counter(let counter): counter.plan(input: input, line: entry.lines[0], start: starts[input], into: &plan)
        case .keypad(let keypad): keypad.plan(input: input, keys: entry.lines, into: &plan)
        }
    }
}

extension InputKinds {
    /// The sources of `roster`'s inputs that are sources of their own (a keypad: a matrix scanned, its
    /// keys lines of the run after the pins), simulated (`seed` the simulation's, `presses` each,
    /// from `startNs`), with where each of their lines is.
    package static func simulatedSources(
        of roster: Roster, seed: UInt64, presses: Int?, startNs: Int64
    ) -> (sources: [RunAssembly.NamedKeypad], places: [RunAssembly.LinePlace]) {
        var made: (sources: [RunAssembly.NamedKeypad], places: [RunAssembly.LinePlace]) = ([], [])
        var index: UInt64 = 0
        for input in roster.inputs {
            guard case .keypad(let keypad) = input.kind else { continue }
            let (source, places) = keypad.simulatedSource(index: index, seed: seed, presses: presses, startNs: startNs)
            made.sources.append(source)
            made.places += places
            index += 1
        }
        return made
    }

    /// The same on this machine's pins: `pins` are the pins of those inputs as found, in `Roster.pins`
    /// order (each input's in turn), requested.
    package static func requestedSources(
        of roster: Roster, pins: [(chip: GPIOChip, offset: Int)]
    ) throws(GPIOError) -> (sources: [RunAssembly.NamedKeypad], places: [RunAssembly.LinePlace]) {
        var made: (sources: [RunAssembly.NamedKeypad], places: [RunAssembly.LinePlace]) = ([], [])
        var next = 0
        for input in roster.inputs {
            guard case .keypad(let keypad) = input.kind else { continue }
            let count = keypad.rows.count + keypad.columns.count
            let upper = min(pins.count, next + count)
            let (source, places) = try keypad.requestedSource(pins: next < upper ? Array(pins[next..<upper]) : [])
            next += count
            made.sources.append(source)
            made.places += places
        }
        return made
    }
}

extension InputKinds {
    /// What the state directory keeps of `roster`'s inputs, in the run's order, as each kind says
    /// (`<Kind>Settings+Kept.swift`): the counters' totals, the restored encoders' positions.
    package static func kept(of roster: Roster) -> (counters: [CounterStore.Counter], encoders: [CounterStore.Encoder]) {
        var kept: (counters: [CounterStore.Counter], encoders: [CounterStore.Encoder]) = ([], [])
        for (input, entry) in roster.inputs.enumerated() {
            switch entry.kind {
            case .counter(let counter): kept.counters.append(counter.kept(line: entry.lines[0]))
            case .encoder(let encoder): if let position = encoder.kept(input: input) { kept.encoders.append(position) }
            case .button, .sensor, .keypad: break
            }
        }
        return kept
    }
}

extension InputKinds {
    /// How `entry` takes a recorded trace of one line (`replay --config`), as its kind says
    /// (`<Kind>Settings+Replay.swift`); nil for an input of several lines.
    package static func replayTarget(of entry: Roster.Input) -> ReplayTarget? {
        switch entry.kind {
        case .button(let button): button.replayTarget
        case .sensor(let sensor): sensor.replayTarget
        case .counter(let counter): counter.replayTarget
        case .encoder, .keypad: nil
        }
    }
}
