/// A chip gone away while watched, or back: its lines (the run's line numbers) deliver no edge while it
/// is away, and are read again as it comes back (`EdgeBatch.availability`, `Sink.availabilityChanged`).
public struct ChipAvailability: Sendable, Hashable {
    /// The chip's name as it was requested, or as it came back (e.g. `gpiochip5`).
    public var chip: String
    /// The run's lines on it.
    public var lines: [Int]
    /// Whether its lines are watched again (`true`) or gone (`false`).
    public var isAvailable: Bool

    public init(chip: String, lines: [Int], isAvailable: Bool) {
        self.chip = chip
        self.lines = lines
        self.isAvailable = isAvailable
    }
}
