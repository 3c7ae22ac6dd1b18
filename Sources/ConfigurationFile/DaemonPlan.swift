import DebounceCore
import Pipeline
import Settings

/// What a configuration asks the event loop to run: the pipeline's plan for each line (buttons, the
/// encoders' raw lines, contacts, counters: in the roster's line order, `Roster.lines`), the groups'
/// lockouts, and the actions with the events that start them. Pure: building it opens nothing.
package struct DaemonPlan: Sendable {
    /// One plan per line, in the roster's line order (the loop's): `plans[id.index]` is line `id`'s.
    package var plans: [LinePlan]
    /// The groups, in the order `LinePlan.group` indexes (sorted by name).
    package var groups: [GroupLockout]
    package var actions: [Action]
    /// Which outputs of which input start each action (into `actions`): a button's events, a key's, a
    /// keypad's codes, an encoder's detents, a contact's changes, a counter's pulses and rates.
    package var actionBindings: [InputActionBinding] = []
    /// What the inputs send on the virtual keyboard: a button's keys, an encoder's keys or axis, a
    /// keypad's `key_map:`; empty when none has keys (then no keyboard is made).
    package var keyBindings: [InputKeyBinding] = []
    /// The encoders, in the configuration's order, each decoding its two raw lines (`Roster.encoders`).
    package var encoders: [EncoderPlan]
    /// The keypads' code entry, in the keypads' order (those with `code:`).
    package var codes: [CodePlan] = []

    /// What the loop's pipeline is made of: the lines' plans, the groups, the encoders and the codes.
    package var pipeline: PipelinePlan { PipelinePlan(lines: plans, groups: groups, encoders: encoders, codes: codes) }

    /// The plan of `configuration`, each input that keeps a value starting from `starts[input]` (by its
    /// input, its index in the roster; what a state file kept): a counter's total in pulses, an
    /// encoder's position (clamped into its range); 0 for one not listed. `DaemonPlan.starts` reads
    /// them back.
    package init(_ configuration: ServiceConfiguration, starts: [Int: Int64] = [:]) {
        let roster = configuration.roster
        let groupNames = configuration.groups.keys.sorted()
        groups = groupNames.map { GroupLockout(windowNs: configuration.groups[$0] ?? 0) }
        // A reset line names its encoder by the pipeline's index of it (`LineRole.encoderReset`).
        let encoderOfInput = Dictionary(uniqueKeysWithValues: roster.inputIndices(of: .encoder).enumerated().map { ($1, $0) })
        plans = roster.lines.map { line in
            var plan = Self.plan(of: line, in: roster, groupNames: groupNames, starts: starts, encoderOfInput: encoderOfInput)
            // Its outputs, and the pipeline's health of its input, name its owner.
            plan.input = line.owner.input
            return plan
        }
        // Each encoder's outputs name its input (`OutputSource.input`), as its bindings do.
        let encoderInputs = roster.inputIndices(of: .encoder)
        encoders = roster.encoders.enumerated().map { index, encoder in
            let kept = starts[encoderInputs[index]].map { Int(clamping: $0) }
            let configuration = encoder.settings.configuration
            return EncoderPlan(
                lineA: encoder.lineA.index, lineB: encoder.lineB.index, configuration: configuration, initialPosition: configuration.clamped(kept ?? 0),
                input: encoderInputs[index])
        }
        actions = []
        for (input, entry) in roster.inputs.enumerated() {
            switch entry.kind {
            case .button(let button):
                for keys in button.keys {
                    keyBindings.append(
                        InputKeyBinding(
                            input: input, line: entry.lines[0].index, on: keys.on.rawValue, count: keys.count, keys: keys.keys,
                            isHeld: keys.isHeld && keys.on != .release))
                }
                for action in button.actions { bind(action.action, input: input, on: action.on.rawValue, count: action.count) }
            case .encoder(let encoder):
                if let axis = encoder.axis {
                    keyBindings.append(InputKeyBinding(input: input, on: EncoderTrigger.rotate.rawValue, axis: axis))
                } else if let keys = encoder.keys {
                    for (on, codes) in [(EncoderTrigger.cw, keys.clockwise), (.ccw, keys.counterClockwise)] where !codes.isEmpty {
                        keyBindings.append(InputKeyBinding(input: input, on: on.rawValue, keys: codes))
                    }
                }
                for action in encoder.actions { bind(action.action, input: input, on: action.on.rawValue) }
            case .sensor(let sensor):
                for action in sensor.actions { bind(action.action, input: input, on: action.on.rawValue) }
            case .counter(let counter):
                for action in counter.actions { bind(action.action, input: input, on: action.on.rawValue) }
            case .keypad(let keypad):
                addKeypad(keypad, input: input, keys: entry.lines)
            }
        }
    }

    /// `action`, started by the outputs of input `input` that answer `on` (of line `line` only and
    /// `count` clicks only, when set).
    private mutating func bind(_ action: Action, input: Int, line: Int? = nil, on: String, count: Int? = nil) {
        actionBindings.append(InputActionBinding(input: input, line: line, on: on, count: count, action: actions.count))
        actions.append(action)
    }

    /// Line `line`'s plan, by its owner's kind: an encoder's lines A and B are raw (its decoder takes
    /// them), its reset button's is debounced.
    private static func plan(
        of line: Roster.PlannedLine, in roster: Roster, groupNames: [String], starts: [Int: Int64], encoderOfInput: [Int: Int]
    ) -> LinePlan {
        switch roster.input(owning: line.id).kind {
        case .encoder(let encoder) where line.owner.role == .encoderReset:
            if let reset = encoder.reset, let index = encoderOfInput[line.owner.input] {
                LinePlan(debounce: reset.debounce, role: .encoderReset(encoder: index, position: encoder.configuration.clamped(reset.position)))
            } else {
                LinePlan.raw
            }
        case .button(let button):
            LinePlan(debounce: button.debounce, gestures: button.gestures, group: button.group.flatMap { groupNames.firstIndex(of: $0) })
        case .encoder: LinePlan.raw
        case .sensor(let sensor): LinePlan(debounce: sensor.debounce, role: .contact(sensor.contact))
        case .counter(let counter): LinePlan(debounce: counter.debounce, role: .counter(initialTotal: starts[line.owner.input] ?? 0, rate: counter.rateConfiguration))
        case .keypad(let keypad): LinePlan(debounce: keypad.debounce, gestures: keypad.gestures)
        }
    }

    /// A keypad's keys, typed (`key_map:`, held from press to release) and starting its actions as a
    /// button's events do, and its code entry and the actions its codes start.
    private mutating func addKeypad(_ keypad: KeypadSettings, input: Int, keys: [LineID]) {
        let named = keys.enumerated().map { offset, line in
            (line: line.index, key: keypad.key(row: offset / keypad.matrix.columns, column: offset % keypad.matrix.columns))
        }
        for (line, key) in named {
            if let code = keypad.keyMap[key] {
                keyBindings.append(InputKeyBinding(input: input, line: line, on: ButtonEvent.Kind.press.rawValue, keys: [code], isHeld: true))
            }
        }
        for action in keypad.actions {
            switch action.on {
            case .code:
                actionBindings.append(InputActionBinding(input: input, on: "code", action: actions.count))
            case .key(let kind, let count):
                for (line, key) in named where action.keys?.contains(key) ?? true {
                    actionBindings.append(InputActionBinding(input: input, line: line, on: kind.rawValue, count: count, action: actions.count))
                }
            }
            actions.append(action.action)
        }
        if let code = keypad.code {
            codes.append(CodePlan(input: input, configuration: code, keys: named.map { CodePlan.KeyLine(line: $0.line, key: $0.key) }))
        }
    }
}

extension DaemonPlan {
    /// Where each input that keeps a value starts, by its input (its index in the roster): a meter's
    /// total (its line's `.counter(initialTotal:)`), an encoder's position (`EncoderPlan.initialPosition`).
    package var starts: [Int: Int64] {
        var starts: [Int: Int64] = [:]
        for plan in plans {
            guard case .counter(let total, _) = plan.role, let input = plan.input else { continue }
            starts[input] = total
        }
        for encoder in encoders {
            guard let input = encoder.input else { continue }
            starts[input] = Int64(encoder.initialPosition)
        }
        return starts
    }
}
