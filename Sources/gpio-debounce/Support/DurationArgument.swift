import ArgumentParser
import DebounceCore

/// A duration on the command line that names its unit, as a configuration's durations do: `10us`,
/// `2ms`, `1.5s` (h, min, s, ms, us or µs, ns).
enum DurationArgument {
    /// The duration `text` in nanoseconds; refused without a unit (`10` could be any of them).
    static func withUnit(_ text: String) throws -> Int64 {
        guard let last = text.last, last.isLetter else {
            throw ValidationError("'\(text)' needs a unit, e.g. 10us or 5ms (h, min, s, ms, us, ns)")
        }
        return try DurationSyntax.parseNs(text)
    }
}
