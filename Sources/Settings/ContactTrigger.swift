/// Which changes of a contact (`sensors:`) start an action: `on: on` (the state turned on: a door
/// opened, motion seen), `on: off`, or `on: change` (either way). The state at the start is no change.
package enum ContactTrigger: String, Sendable, Hashable, CaseIterable {
    case on, off, change
}
