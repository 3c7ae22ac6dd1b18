import ConfigurationFile
import Pipeline

extension CounterSettings {
    /// This counter's part of `plan`, input `input` on run line `line`: its line debounced and counted
    /// from `start` pulses (a kept total; else 0), with its rate, and its actions.
    func plan(input: Int, line: LineID, start: Int64?, into plan: inout DaemonPlan) {
        plan.pipeline.lines[line.index] = LinePlan(debounce: debounce, role: .counter(initialTotal: start ?? 0, rate: rateConfiguration))
        plan.starts[input] = start ?? 0
        for action in actions { plan.bind(action.action, input: input, on: action.on.rawValue) }
    }
}
