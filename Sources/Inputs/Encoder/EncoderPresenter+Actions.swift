import EventOutput
import InputModel
import Pipeline

extension EncoderPresenter {
    /// Each detent, by its direction (`cw`, `ccw`), and either way (`rotate`), moving an axis by its
    /// increment (1, or the acceleration's factor), up clockwise. A reset starts none.
    package func actionOccasion(for output: PipelineOutput) -> ActionOccasion? {
        guard case .rotation(_, let detent) = output else { return nil }
        let step = detent.direction == .clockwise ? detent.increment : -detent.increment
        return ActionOccasion(on: detent.direction.rawValue, alsoOn: "rotate", timeNs: detent.timeNs, step: step)
    }

    /// `GPIO_ENCODER`, `GPIO_EVENT=rotate`, `GPIO_DIRECTION`, `GPIO_POSITION`, `GPIO_VELOCITY`
    /// (detents a second), `GPIO_ONSET_NS` and `GPIO_TIME_NS`.
    package func actionEnvironment(for output: PipelineOutput) -> [String] {
        guard case .rotation(_, let detent) = output else { return [] }
        return [
            "GPIO_DIRECTION=\(detent.direction.rawValue)", "GPIO_ENCODER=\(name)", "GPIO_EVENT=rotate", "GPIO_ONSET_NS=\(detent.onsetNs)",
            "GPIO_POSITION=\(detent.position)", "GPIO_TIME_NS=\(detent.timeNs)", "GPIO_VELOCITY=\(EventWriter.decimal(detent.velocity))",
        ]
    }
}
