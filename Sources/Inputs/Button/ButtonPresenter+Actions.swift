import DebounceCore
import InputModel
import Pipeline

extension ButtonPresenter {
    /// Each of its events, by its kind (`press`, `click` with its count, `long_release`...).
    package func actionOccasion(for output: PipelineOutput) -> ActionOccasion? {
        guard case .event(_, let event) = output else { return nil }
        return ActionOccasion(on: event.kind.rawValue, count: event.count, timeNs: event.timeNs)
    }

    /// `GPIO_BUTTON`, `GPIO_CHIP`, `GPIO_LINE`, `GPIO_EVENT`, `GPIO_COUNT`, `GPIO_HELD_NS`,
    /// `GPIO_ONSET_NS` and `GPIO_TIME_NS` (nanoseconds of `CLOCK_MONOTONIC`).
    package func actionEnvironment(for output: PipelineOutput) -> [String] {
        guard case .event(_, let event) = output else { return [] }
        return Self.environment(of: event, button: name, chip: chip, offset: offset)
    }

    /// What the commands of `event` of a line named `button` (a button, or a keypad's key), on
    /// `chip`'s line `offset`, get in their environment.
    static func environment(of event: ButtonEvent, button: String, chip: String, offset: Int) -> [String] {
        [
            "GPIO_BUTTON=\(button)", "GPIO_CHIP=\(chip)", "GPIO_COUNT=\(event.count)", "GPIO_EVENT=\(event.kind.rawValue)", "GPIO_HELD_NS=\(event.heldNs)",
            "GPIO_LINE=\(offset)", "GPIO_ONSET_NS=\(event.onsetNs)", "GPIO_TIME_NS=\(event.timeNs)",
        ]
    }
}
