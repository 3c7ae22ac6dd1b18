import ConfigurationFile
import Pipeline
import Settings

extension ButtonConfiguration {
    /// This button's part of `plan`, input `input` on run line `line`: its line debounced, with its
    /// gestures and its group's lockout (`groupNames`, sorted: `LinePlan.group` indexes them), its keys
    /// (held from the event to the release, but a release's, which is tapped) and its actions.
    func plan(input: Int, line: LineID, groupNames: [String], into plan: inout DaemonPlan) {
        plan.pipeline.lines[line.index] = LinePlan(debounce: debounce, gestures: gestures, group: group.flatMap { groupNames.firstIndex(of: $0) })
        for keys in keys {
            plan.keyBindings.append(
                InputKeyBinding(
                    input: input, line: line.index, on: keys.on.rawValue, count: keys.count, keys: keys.keys, isHeld: keys.isHeld && keys.on != .release))
        }
        for action in actions { plan.bind(action.action, input: input, on: action.on.rawValue, count: action.count) }
    }
}
