import DebounceCore
import InputModel
import Pipeline

extension SelectorPresenter {
    /// Each reading that held: a position (`select`) or an invalid reading (`invalid`).
    package func actionOccasion(for output: PipelineOutput) -> ActionOccasion? {
        guard case .selection(_, let reading) = output else { return nil }
        switch reading.kind {
        case .select: return ActionOccasion(on: SelectorTrigger.select.rawValue, timeNs: reading.timeNs)
        case .invalid: return ActionOccasion(on: SelectorTrigger.invalid.rawValue, timeNs: reading.timeNs)
        }
    }

    /// `GPIO_SELECTOR`, `GPIO_EVENT` (`select`, `invalid`), `GPIO_POSITION` and `GPIO_POSITION_NAME`,
    /// `GPIO_PREVIOUS` and `GPIO_PREVIOUS_NAME` when there was one (a select), `GPIO_ACTIVE_LINES` (an
    /// invalid reading: which of its `lines:` read active, from 1, comma-separated), `GPIO_ONSET_NS` and
    /// `GPIO_TIME_NS`.
    package func actionEnvironment(for output: PipelineOutput) -> [String] {
        guard case .selection(_, let reading) = output else { return [] }
        var environment = ["GPIO_ONSET_NS=\(reading.onsetNs)", "GPIO_SELECTOR=\(name)", "GPIO_TIME_NS=\(reading.timeNs)"]
        switch reading.kind {
        case .select(let position, let previous):
            environment += ["GPIO_EVENT=select", "GPIO_POSITION=\(position)", "GPIO_POSITION_NAME=\(settings.positionName(position))"]
            if let previous { environment += ["GPIO_PREVIOUS=\(previous)", "GPIO_PREVIOUS_NAME=\(settings.positionName(previous))"] }
        case .invalid(let activeLines):
            let numbers = Self.activeNumbers(activeLines, lineCount: lineIndices.count).map(String.init).joined(separator: ",")
            environment += ["GPIO_ACTIVE_LINES=\(numbers)", "GPIO_EVENT=invalid"]
        }
        return environment.sorted()
    }
}
