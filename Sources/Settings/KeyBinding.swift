import DebounceCore

/// Keys for one kind of event of one line: a single key or a combination (`[KEY_LEFTCTRL, KEY_C]`).
///
/// Held keys go down at the event and come up at the button's release: a button's own `key:` (held from
/// its press) and a `hold` action's keys. Other keys are tapped: down, then up, as two reports. A
/// combination goes down in its order and comes up in reverse.
package struct KeyBinding: Sendable, Hashable {
    package var line: Int
    package var on: ButtonEvent.Kind
    /// For clicks: only this count (nil: any).
    package var count: Int?
    /// Key codes (`linux/input-event-codes.h`), in the order they go down; at least one.
    package var keys: [UInt16]
    /// Whether the keys stay down until the button's release (else they are tapped).
    package var isHeld: Bool

    package init(line: Int, on: ButtonEvent.Kind, count: Int? = nil, keys: [UInt16], isHeld: Bool) {
        self.line = line
        self.on = on
        self.count = count
        self.keys = keys
        self.isHeld = isHeld && on != .release
    }
}
