/// The inputs a run watches and the lines they watch: the one place that says which input owns which
/// line, what it is called and where it is. Every consumer (the plan, the printer's fields, the
/// actions' names, MQTT, the state store, `check`, `replay --config`, the configuration's own checks)
/// takes names and places from here; none computes what a line is from its position.
///
/// The run's order is the order of the inputs it is given: the reader gives each kind's inputs in the
/// order of the registry's list of kinds (`InputSections`), each kind's in the configuration's order,
/// and each input's lines in the order its kind says (`InputSettings.watchedLines`: a rotary knob's A,
/// B and reset line; a keypad's keys, row by row). The lines pins carry come first, in that order
/// (`pinLines`: what a pin source requests, from line 0); the lines no pin carries (a keypad's keys:
/// their `settings` are nil) follow, in the same order: a source of their input's own makes them
/// from pins of its own (`InputSettings.pinsOfItsOwn`), which `pins` lists after every pin line's.
/// Whatever kind is listed after another, no line's place depends on it. A line's identity
/// (`LineID`) is its index in that order, which is the index the loop and the pipeline use.
package struct Roster: Sendable {
    /// The inputs, in the run's order.
    package private(set) var inputs: [Input] = []
    /// The lines, in the run's line order: `lines[id.index].id == id`.
    package private(set) var lines: [PlannedLine] = []

    /// Input `name`'s index in `inputs`.
    private var indexByName: [String: Int] = [:]

    /// The roster of a configuration's inputs, in the order given: the run's order, as the reader
    /// reads them (each kind's section in the registry's order, `InputSections`).
    package init(inputs: [any InputSettings] = []) {
        let watched = inputs.map(\.watchedLines)
        var ids = watched.map { Array(repeating: LineID(index: 0), count: $0.count) }
        // The lines pins carry, then the others (`pinLines` is a prefix of `lines`).
        for carriedByPins in [true, false] {
            for (input, lines) in watched.enumerated() {
                for (part, (role, settings)) in lines.enumerated() where (settings != nil) == carriedByPins {
                    let id = LineID(index: self.lines.count)
                    self.lines.append(PlannedLine(id: id, settings: settings, owner: Owner(input: input, role: role)))
                    ids[input][part] = id
                }
            }
        }
        for (input, settings) in inputs.enumerated() {
            indexByName[settings.name] = input
            self.inputs.append(Input(name: settings.name, settings: settings, lines: ids[input]))
        }
    }

    // MARK: Questions

    /// The index in `inputs` of input `id`; nil when the roster has no input of that name and kind.
    package func index(of id: InputID) -> Int? {
        guard let index = indexByName[id.name], inputs[index].kind == id.kind else { return nil }
        return index
    }

    /// The indices in `inputs` of the inputs of kind `kind`, in order.
    package func inputIndices(of kind: InputKindID) -> [Int] { inputs.indices.filter { inputs[$0].kind == kind } }

    /// Line `id`.
    package subscript(id: LineID) -> PlannedLine { lines[id.index] }

    /// The lines of input `input` (an index into `inputs`), in the run's line order.
    package func lines(of input: Int) -> [PlannedLine] { inputs[input].lines.map { lines[$0.index] } }

    /// The input that owns line `id`, and the line's role in it.
    package func owner(of id: LineID) -> Owner { lines[id.index].owner }

    /// The input that owns line `id`.
    package func input(owning id: LineID) -> Input { inputs[lines[id.index].owner.input] }

    /// What messages call line `id`: its input's name, and for a line of an input of several lines
    /// which one (`volume (A)`).
    /// A keypad's key is called by its keypad and its character (`door key 5`).
    package func label(of id: LineID) -> String {
        let owner = owner(of: id)
        let input = inputs[owner.input]
        return input.settings.label(of: owner.role).map { "\(input.name) \($0)" } ?? input.name + owner.role.suffix
    }

    /// The inputs whose settings are a `Settings`, in order, each with its lines: what a kind's
    /// views of the roster (`roster.buttons`) are made of.
    package func inputs<Settings: InputSettings>(of _: Settings.Type) -> [(settings: Settings, lines: [LineID])] {
        inputs.compactMap { input in (input.settings as? Settings).map { ($0, input.lines) } }
    }

    /// The lines that carry pins (every line but a keypad's keys), in the run's order: the lines a
    /// pin source requests, one after the other from line 0 (the others come after them all).
    package var pinLines: [PlannedLine] { lines.filter { $0.settings != nil } }

    /// The pins input `input` (an index into `inputs`) requests, each with what messages call it: its
    /// lines' (`label(of:)`), or a keypad's rows and columns (`door (row 1)`, `door (column 2)`).
    package func pins(of input: Int) -> [(label: String, settings: LineSettings)] {
        let own = inputs[input].settings.pinsOfItsOwn
        guard !own.isEmpty else { return lines(of: input).compactMap { line in line.settings.map { (label(of: line.id), $0) } } }
        return own.map { ("\(inputs[input].name) (\($0.what))", $0.settings) }
    }

    /// Every pin the run requests, in the run's order: the pin lines' (`pinLines`), then each keypad's
    /// rows and columns.
    package var pins: [(label: String, settings: LineSettings)] { pinOrder.flatMap { pins(of: $0) } }

    /// The index in `pins` of input `input`'s first pin (an index into `inputs`).
    package func firstPin(of input: Int) -> Int {
        pinOrder.prefix { $0 != input }.reduce(0) { $0 + pins(of: $1).count }
    }

    /// The inputs in the order `pins` lists their pins: those whose lines carry them, then those with
    /// pins of their own.
    private var pinOrder: [Int] {
        let ofTheirOwn = inputs.indices.filter { !inputs[$0].settings.pinsOfItsOwn.isEmpty }
        return inputs.indices.filter { inputs[$0].settings.pinsOfItsOwn.isEmpty } + ofTheirOwn
    }
}
