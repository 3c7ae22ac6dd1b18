import DebounceCore
import InputModel
import Pipeline

extension ButtonPresenter {
    /// Each of its events, by its kind (`press`, `click` with its count, `long_release`...); its
    /// release lets go of the keys it holds.
    package func actionOccasion(for output: PipelineOutput) -> ActionOccasion? {
        guard case .event(_, let event) = output else { return nil }
        return event.actionOccasion
    }

    /// Its event's environment (`ButtonEvent.actionEnvironment`): `GPIO_BUTTON` is its name.
    package func actionEnvironment(for output: PipelineOutput) -> [String] {
        guard case .event(_, let event) = output else { return [] }
        return event.actionEnvironment(name: name, chip: chip, offset: offset)
    }
}
