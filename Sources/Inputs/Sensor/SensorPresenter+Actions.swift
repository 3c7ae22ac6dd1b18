import InputModel
import Pipeline

extension SensorPresenter {
    /// Each change, by its new state (`on`, `off`), and either way (`change`). The state at the start
    /// is no change.
    package func actionOccasion(for output: PipelineOutput) -> ActionOccasion? {
        guard case .contact(_, let change) = output else { return nil }
        return ActionOccasion(on: change.isOn ? Self.onPayload : Self.offPayload, alsoOn: "change", timeNs: change.timeNs)
    }

    /// `GPIO_SENSOR`, `GPIO_CHIP`, `GPIO_LINE`, `GPIO_EVENT=state`, `GPIO_STATE` (`on`, `off`),
    /// `GPIO_PREVIOUS_NS` (how long the state before lasted), `GPIO_ONSET_NS` and `GPIO_TIME_NS`.
    package func actionEnvironment(for output: PipelineOutput) -> [String] {
        guard case .contact(_, let change) = output else { return [] }
        return [
            "GPIO_CHIP=\(chip)", "GPIO_EVENT=state", "GPIO_LINE=\(offset)", "GPIO_ONSET_NS=\(change.onsetNs)", "GPIO_PREVIOUS_NS=\(change.previousDurationNs)",
            "GPIO_SENSOR=\(name)", "GPIO_STATE=\(change.isOn ? Self.onPayload : Self.offPayload)", "GPIO_TIME_NS=\(change.timeNs)",
        ]
    }
}
