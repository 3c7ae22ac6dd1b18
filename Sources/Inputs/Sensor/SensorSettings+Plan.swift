import ConfigurationFile
import Pipeline

extension SensorSettings {
    /// This contact's part of `plan`, input `input` on run line `line`: its line debounced and
    /// filtered (its delays), and its actions.
    func plan(input: Int, line: LineID, into plan: inout DaemonPlan) {
        plan.pipeline.lines[line.index] = LinePlan(debounce: debounce, role: .contact(contact))
        for action in actions { plan.bind(action.action, input: input, on: action.on.rawValue) }
    }
}
