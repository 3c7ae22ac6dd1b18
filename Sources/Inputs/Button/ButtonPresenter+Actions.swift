import DebounceCore
import InputModel
import Pipeline

extension ButtonPresenter {
    /// Each of its events, by its kind (`press`, `click` with its count, `long_release`...); its
    /// release lets go of the keys it holds.
    package func actionOccasion(for output: PipelineOutput) -> ActionOccasion? {
        guard case .event(_, let event) = output else { return nil }
        return Self.occasion(of: event)
    }

    /// A line's `event` (a button's, or a keypad's key's) as its actions and keys see it.
    static func occasion(of event: ButtonEvent) -> ActionOccasion {
        ActionOccasion(on: event.kind.rawValue, count: event.count, timeNs: event.timeNs, releasesHeldKeys: event.kind == .release)
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
