import DebounceCore

/// Which action an event of a line starts: events of kind `on` (and, for clicks, `count`, if set).
package struct ActionBinding: Sendable, Hashable {
    package var line: Int
    package var on: ButtonEvent.Kind
    package var count: Int?
    /// Index into the runner's actions.
    package var action: Int

    package init(line: Int, on: ButtonEvent.Kind, count: Int? = nil, action: Int) {
        self.line = line
        self.on = on
        self.count = count
        self.action = action
    }
}
