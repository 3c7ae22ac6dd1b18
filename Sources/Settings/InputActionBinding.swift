/// Which action an input's outputs start: those of input `input` (its index in the run's inputs,
/// `OutputSource.input`) that answer `on` (`ActionOccasion.on` or `.alsoOn`), of run line `line` only
/// when set (a keypad's key), and for clicks of `count` only when set. The words are each kind's:
/// a button's event kinds (`press`, `hold`, ...), and each other kind's own (`cw`, `rotate`, `pulse`,
/// `code`, ...).
package struct InputActionBinding: Sendable, Hashable {
    package var input: Int
    package var line: Int?
    package var on: String
    package var count: Int?
    /// Index into the runner's actions.
    package var action: Int

    package init(input: Int, line: Int? = nil, on: String, count: Int? = nil, action: Int) {
        self.input = input
        self.line = line
        self.on = on
        self.count = count
        self.action = action
    }
}
