import ConfigurationFile
import DebounceCore
import Pipeline
import Settings

extension KeypadSettings {
    /// This keypad's part of `plan`, input `input` whose keys are run lines `keys` (row by row): each
    /// key debounced with the keypad's gestures, typed (`key_map:`, held from press to release) and
    /// starting its actions as a button's events do; its code entry and the actions its codes start.
    func plan(input: Int, keys: [LineID], into plan: inout DaemonPlan) {
        let named = keys.enumerated().map { offset, line in
            (line: line.index, key: key(row: offset / matrix.columns, column: offset % matrix.columns))
        }
        for (line, key) in named {
            plan.pipeline.lines[line] = LinePlan(debounce: debounce, gestures: gestures)
            if let code = keyMap[key] {
                plan.keyBindings.append(InputKeyBinding(input: input, line: line, on: ButtonEvent.Kind.press.rawValue, keys: [code], isHeld: true))
            }
        }
        for action in actions {
            switch action.on {
            case .code:
                plan.bind(action.action, input: input, on: KeypadPresenter.codeEventType)
            case .key(let kind, let count):
                // One action, bound to each of its keys' lines.
                let index = plan.actions.count
                plan.actions.append(action.action)
                for (line, key) in named where action.keys?.contains(key) ?? true {
                    plan.actionBindings.append(InputActionBinding(input: input, line: line, on: kind.rawValue, count: count, action: index))
                }
            }
        }
        if let code {
            plan.pipeline.codes.append(CodePlan(input: input, configuration: code, keys: named.map { CodePlan.KeyLine(line: $0.line, key: $0.key) }))
        }
    }
}
