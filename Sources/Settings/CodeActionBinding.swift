/// Which action a keypad's entered code starts (`actions:` with `on: code`).
package struct CodeActionBinding: Sendable, Hashable {
    /// The keypad's index among the run's keypads (`PipelineOutput.code(keypad:)`).
    package var keypad: Int
    /// Index into the runner's actions.
    package var action: Int

    package init(keypad: Int, action: Int) {
        self.keypad = keypad
        self.action = action
    }
}
