/// The electrical level of a GPIO line, as the kernel reports it (before any active-low inversion).
public enum Level: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// The line reads 0 (near ground).
    case low = 0
    /// The line reads 1 (near the supply voltage).
    case high = 1

    /// The other level.
    @inlinable
    public var toggled: Level { self == .low ? .high : .low }

    public var description: String { self == .low ? "0" : "1" }
}

/// Which raw level means "pressed".
///
/// A button wired between the pin and ground, with the pin's internal pull-up enabled, reads
/// `low` while pressed: that is `activeLow`, the default (as gpiozero's `Button` defaults).
public enum ActiveLevel: Sendable, Hashable {
    /// Pressed reads 0: button to ground, pull-up (the default wiring).
    case activeLow
    /// Pressed reads 1: button to the supply voltage, pull-down.
    case activeHigh

    /// Whether `level` means pressed under this polarity.
    @inlinable @inline(__always)
    public func isPressed(_ level: Level) -> Bool {
        self == .activeLow ? level == .low : level == .high
    }

    /// The raw level that means pressed (`true`) or released (`false`) under this polarity.
    @inlinable @inline(__always)
    public func level(pressed: Bool) -> Level {
        (self == .activeLow) == pressed ? .low : .high
    }
}
