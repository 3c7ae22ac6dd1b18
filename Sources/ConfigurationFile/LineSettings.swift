import Settings

/// Where one line of a run is and how it is requested, whatever input it serves: the chip and line as
/// the configuration wrote them, the bias and the kernel's debouncing. Every input kind holds its
/// line's (`lineSettings`; an encoder one for each of its lines A and B), read by one reader of the
/// shared keys (`ConfigurationReader.lineSettings`), and each of a run's lines has one
/// (`Roster.PlannedLine.settings`).
package struct LineSettings: Sendable, Hashable {
    /// The chip as the user wrote it (path, name, number or label), or nil for the default: the 40-pin
    /// header's chip for an offset, the chip that has it for a name.
    package var chip: String?
    /// The line as written: an offset (`17`) or a name (`GPIO17`).
    package var line: String
    package var bias: Bias
    /// Kernel debouncing (libgpiod 2), in nanoseconds; 0 for none. An encoder's lines get none (its
    /// decoder takes every change itself).
    package var kernelDebounceNs: Int64

    package init(chip: String?, line: String, bias: Bias, kernelDebounceNs: Int64 = 0) {
        self.chip = chip
        self.line = line
        self.bias = bias
        self.kernelDebounceNs = kernelDebounceNs
    }
}
