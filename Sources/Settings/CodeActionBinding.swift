/// Which action a keypad's entered code starts (`actions:` with `on: code`).
package struct CodeActionBinding: Sendable, Hashable {
    /// The keypad: its input (`OutputSource.input` of its codes).
    package var input: Int
    /// Index into the runner's actions.
    package var action: Int

    package init(input: Int, action: Int) {
        self.input = input
        self.action = action
    }
}
