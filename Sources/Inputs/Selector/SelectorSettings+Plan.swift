import ConfigurationFile
import Pipeline

extension SelectorSettings {
    /// This selector's part of `plan`, input `input` on run `lines` (bit 0 first): a decoder of its raw
    /// lines, and its actions.
    func plan(input: Int, lines: [LineID], into plan: inout DaemonPlan) {
        // Its lines stay raw (the plan's default): the decoder takes them.
        plan.pipeline.selectors.append(
            SelectorPlan(lines: lines.map(\.index), activeLevel: activeLevel, configuration: configuration, input: input))
        for action in actions { plan.bind(action.action, input: input, on: action.on.rawValue) }
    }
}
