import DebounceCore
import Settings
import YAMLDocument

/// Keys to send on one kind of event of a button: the button's `key:` (held from press to release), or
/// an action's `key:` in place of `run:` (tapped, except `on: hold`: held until the release).
package struct KeyActionConfiguration: Sendable, Hashable {
    package var on: ButtonEvent.Kind
    /// For clicks: only this count (nil: any).
    package var count: Int?
    /// Key codes, in the order they go down.
    package var keys: [UInt16]
    /// Down until the button's release (the button's own `key:`, and `on: hold`), else tapped.
    package var isHeld: Bool

    package init(on: ButtonEvent.Kind, count: Int?, keys: [UInt16], isHeld: Bool) {
        self.on = on
        self.count = count
        self.keys = keys
        self.isHeld = isHeld
    }
}

/// A command to run on one kind of event of a button.
package struct ActionConfiguration: Sendable, Equatable {
    /// The event kind that triggers it.
    package var on: ButtonEvent.Kind
    /// For clicks: only this count (nil: any).
    package var count: Int?
    package var action: Action

    package init(on: ButtonEvent.Kind, count: Int?, action: Action) {
        self.on = on
        self.count = count
        self.action = action
    }
}
