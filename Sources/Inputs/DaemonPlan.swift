import ConfigurationFile
import DebounceCore
import Pipeline
import Settings

/// What a configuration asks the event loop to run: the pipeline's plan for each line (in the roster's
/// line order, `Roster.lines`) and each input's own stages (an encoder's decoder, a keypad's code
/// entry), the groups' lockouts, the actions and keys with the outputs that start them. Each input adds
/// its part as its kind plans it (`<Kind>…+Plan.swift`). Pure: building it opens nothing.
package struct DaemonPlan: Sendable {
    /// One plan per line, in the roster's line order (the loop's): `plans[id.index]` is line `id`'s.
    package var plans: [LinePlan]
    /// The groups, in the order `LinePlan.group` indexes (sorted by name).
    package var groups: [GroupLockout]
    package var actions: [Action] = []
    /// Which outputs of which input start each action (into `actions`): a button's events, a key's, a
    /// keypad's codes, an encoder's detents, a contact's changes, a counter's pulses and rates.
    package var actionBindings: [InputActionBinding] = []
    /// What the inputs send on the virtual keyboard: a button's keys, an encoder's keys or axis, a
    /// keypad's `key_map:`; empty when none has keys (then no keyboard is made).
    package var keyBindings: [InputKeyBinding] = []
    /// The encoders, in the configuration's order, each decoding its two raw lines (`Roster.encoders`).
    package var encoders: [EncoderPlan] = []
    /// The keypads' code entry, in the keypads' order (those with `code:`).
    package var codes: [CodePlan] = []
    /// The selector switches, in the configuration's order, each decoding its raw lines.
    package var selectors: [SelectorPlan] = []

    /// What the loop's pipeline is made of: the lines' plans, the groups, the encoders, the codes and the selectors.
    package var pipeline: PipelinePlan { PipelinePlan(lines: plans, groups: groups, encoders: encoders, codes: codes, selectors: selectors) }

    /// The plan of `configuration`, each input that keeps a value starting from `starts[input]` (by its
    /// input, its index in the roster; what a state file kept): a counter's total in pulses, an
    /// encoder's position (clamped into its range); 0 for one not listed. `DaemonPlan.starts` reads
    /// them back. Each input adds its own part, as its kind plans it (`InputKinds.plan`).
    package init(_ configuration: ServiceConfiguration, starts: [Int: Int64] = [:]) {
        let roster = configuration.roster
        let groupNames = configuration.groups.keys.sorted()
        groups = groupNames.map { GroupLockout(windowNs: configuration.groups[$0] ?? 0) }
        plans = Array(repeating: .raw, count: roster.lines.count)
        for (input, entry) in roster.inputs.enumerated() {
            InputKinds.plan(entry, input: input, groupNames: groupNames, starts: starts, into: &self)
        }
        // Every line's outputs, and the pipeline's health of its input, name its owner.
        for line in roster.lines { plans[line.id.index].input = line.owner.input }
    }

    /// `action`, started by the outputs of input `input` that answer `on` (of run line `line` only and
    /// `count` clicks only, when set).
    package mutating func bind(_ action: Action, input: Int, line: Int? = nil, on: String, count: Int? = nil) {
        actionBindings.append(InputActionBinding(input: input, line: line, on: on, count: count, action: actions.count))
        actions.append(action)
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
