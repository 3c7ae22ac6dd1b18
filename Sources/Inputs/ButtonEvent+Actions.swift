import DebounceCore
import InputModel

/// A gesture event (a button's, or a keypad's key's) as its actions and keys see it: what the kinds
/// whose lines make gestures share.
extension ButtonEvent {
    /// Its occasion, by its kind (`press`, `click` with its count, `long_release`...); a release lets
    /// go of the keys its line holds.
    package var actionOccasion: ActionOccasion {
        ActionOccasion(on: kind.rawValue, count: count, timeNs: timeNs, releasesHeldKeys: kind == .release)
    }

    /// What the commands it starts get in their environment, for a line called `name` (a button's
    /// name, or `door key 5`) on `chip`'s line `offset`: `GPIO_BUTTON`, `GPIO_CHIP`, `GPIO_LINE`,
    /// `GPIO_EVENT`, `GPIO_COUNT`, `GPIO_HELD_NS`, `GPIO_ONSET_NS` and `GPIO_TIME_NS` (nanoseconds of
    /// `CLOCK_MONOTONIC`).
    package func actionEnvironment(name: String, chip: String, offset: Int) -> [String] {
        [
            "GPIO_BUTTON=\(name)", "GPIO_CHIP=\(chip)", "GPIO_COUNT=\(count)", "GPIO_EVENT=\(kind.rawValue)", "GPIO_HELD_NS=\(heldNs)",
            "GPIO_LINE=\(offset)", "GPIO_ONSET_NS=\(onsetNs)", "GPIO_TIME_NS=\(timeNs)",
        ]
    }
}
