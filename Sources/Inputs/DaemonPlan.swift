import ConfigurationFile
import DebounceCore
import Pipeline
import Settings

/// What a configuration asks the event loop to run: the pipeline's plan (each line's stages, in the
/// roster's line order, `Roster.lines`; each input's own stages; the groups' lockouts), the actions and
/// keys with the outputs that start them, and where each input that keeps a value starts. Each input
/// adds its part as its kind plans it (`<Kind>…+Plan.swift`). Pure: building it opens nothing.
package struct DaemonPlan: Sendable {
    /// What the loop's pipeline is made of: one plan per line, the groups, and the stages that decode
    /// several lines together, as the kinds add them.
    package internal(set) var pipeline: PipelinePlan
    /// One plan per line, in the roster's line order (the loop's): `plans[id.index]` is line `id`'s.
    package var plans: [LinePlan] { pipeline.lines }
    /// The groups, in the order `LinePlan.group` indexes (sorted by name).
    package var groups: [GroupLockout] { pipeline.groups }
    package var actions: [Action] = []
    /// Which outputs of which input start each action (into `actions`), by the words of its kind
    /// (`InputActionBinding.on`).
    package var actionBindings: [InputActionBinding] = []
    /// What the inputs send on the virtual keyboard; empty when none has keys (then no keyboard is made).
    package var keyBindings: [InputKeyBinding] = []
    /// Where each input that keeps a value starts, by its input (its index in the roster), as its kind
    /// planned it: the `starts` given, else its own start, clamped into its range where it has one.
    package internal(set) var starts: [Int: Int64] = [:]

    /// The plan of `configuration`, each input that keeps a value starting from `starts[input]` (by its
    /// input, its index in the roster; what a state file kept), in its kind's unit (a total in pulses,
    /// a position in detents); its own start for one not listed. `DaemonPlan.starts` reads them back. Each input adds its own part, as its kind
    /// plans it (`InputKinds.plan`).
    package init(_ configuration: ServiceConfiguration, starts: [Int: Int64] = [:]) {
        let roster = configuration.roster
        let groupNames = configuration.groups.keys.sorted()
        pipeline = PipelinePlan(
            lines: Array(repeating: .raw, count: roster.lines.count), groups: groupNames.map { GroupLockout(windowNs: configuration.groups[$0] ?? 0) })
        for (input, entry) in roster.inputs.enumerated() {
            InputKinds.plan(entry, input: input, groupNames: groupNames, starts: starts, into: &self)
        }
        // Every line's outputs, and the pipeline's health of its input, name its owner.
        for line in roster.lines { pipeline.lines[line.id.index].input = line.owner.input }
    }

    /// `action`, started by the outputs of input `input` that answer `on` (of run line `line` only and
    /// `count` clicks only, when set).
    package mutating func bind(_ action: Action, input: Int, line: Int? = nil, on: String, count: Int? = nil) {
        actionBindings.append(InputActionBinding(input: input, line: line, on: on, count: count, action: actions.count))
        actions.append(action)
    }
}
