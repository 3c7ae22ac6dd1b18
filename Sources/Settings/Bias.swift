/// Bias for a requested input line.
public enum Bias: String, Sendable, CaseIterable {
    /// Enable the internal pull-up: for a button to ground (the default).
    case pullUp = "pull-up"
    /// Enable the internal pull-down: for a button to the supply voltage.
    case pullDown = "pull-down"
    /// Disable both pulls: there is an external resistor.
    case disabled
    /// Leave the bias as it is.
    case asIs = "as-is"

    /// The bias as libgpiod 2's gpiomon names it (the raw values), or `disable`, libgpiod 1.6's
    /// gpiomon's name for `disabled` (both name the others alike).
    package init?(spelling: String) {
        self.init(rawValue: spelling == "disable" ? Self.disabled.rawValue : spelling)
    }
}
