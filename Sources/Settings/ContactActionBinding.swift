import DebounceCore

/// Which changes of a contact (`sensors:`) start an action: `on: on` (the state turned on: a door
/// opened, motion seen), `on: off`, or `on: change` (either way). The state at the start is no change.
package enum ContactTrigger: String, Sendable, Hashable, CaseIterable {
    case on, off, change

    package func matches(_ change: ContactEvent) -> Bool {
        switch self {
        case .change: true
        case .on: change.isOn
        case .off: !change.isOn
        }
    }
}

/// Which action a change of a contact's reported state starts.
package struct ContactActionBinding: Sendable, Hashable {
    /// The contact's line index in the run (`PipelineOutput.contact(line:)`).
    package var line: Int
    package var on: ContactTrigger
    /// Index into the runner's actions.
    package var action: Int

    package init(line: Int, on: ContactTrigger, action: Int) {
        self.line = line
        self.on = on
        self.action = action
    }
}
