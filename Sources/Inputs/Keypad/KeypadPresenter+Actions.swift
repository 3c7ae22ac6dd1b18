import DebounceCore
import InputModel
import Pipeline

extension KeypadPresenter {
    /// Each event of a key, by its kind (`press`, `click` with its count...), as every gesture's.
    package func actionOccasion(for output: PipelineOutput) -> ActionOccasion? {
        guard case .event(_, let event) = output else { return nil }
        return event.actionOccasion
    }

    /// A key's event: a gesture's environment (`GPIO_BUTTON` is `door key 5`), with `GPIO_KEYPAD` and
    /// `GPIO_KEY` (only keys with actions of their own have any: never a key a code is made of).
    package func actionEnvironment(for output: PipelineOutput) -> [String] {
        guard case .event(let source, let event) = output, let index = lineIndices.firstIndex(of: source.lineIndex), keys.indices.contains(index) else {
            return []
        }
        let key = String(keys[index])
        let place = places.indices.contains(index) ? places[index] : (chip: "", offset: 0)
        return event.actionEnvironment(name: "\(name) key \(key)", chip: place.chip, offset: place.offset)
            + ["GPIO_KEY=\(key)", "GPIO_KEYPAD=\(name)"]
    }

    /// Each entered code: `code`.
    package func actionOccasion(for code: EnteredCode) -> ActionOccasion? {
        ActionOccasion(on: Self.codeEventType, timeNs: code.timeNs)
    }

    /// `GPIO_CODE` (the code itself: the one place it goes), `GPIO_CODE_LENGTH`, `GPIO_EVENT=code`,
    /// `GPIO_KEYPAD` and `GPIO_TIME_NS`.
    package func actionEnvironment(for code: EnteredCode) -> [String] {
        [
            "GPIO_CODE=\(code.code)", "GPIO_CODE_LENGTH=\(code.code.count)", "GPIO_EVENT=code", "GPIO_KEYPAD=\(name)",
            "GPIO_TIME_NS=\(code.timeNs)",
        ]
    }
}
