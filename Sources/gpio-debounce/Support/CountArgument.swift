import ArgumentParser

/// A count on the command line (`--presses`, `--edges`, `--num-events`, `--burst`): a plain whole
/// number from 1 to `Int.max`. Given as the options' `transform:`, so that `--presses 0`,
/// `--presses -3` (which `ArgumentPrecheck` hands to the option) and a number too large for a
/// 64-bit count each say what is allowed, instead of the parser's "is invalid".
enum CountArgument {
    /// `text` as a count from 1, or a `ValidationError` saying what is allowed.
    static func parse(_ text: String) throws -> Int { try parse(text, from: 1) }

    /// `text` as a count from 0 (`run --presses 0`), or a `ValidationError` saying what is allowed.
    static func parseFromZero(_ text: String) throws -> Int { try parse(text, from: 0) }

    /// `text` as a count from `minimum` (0 or 1), or a `ValidationError` saying what is allowed.
    static func parse(_ text: String, from minimum: Int) throws -> Int {
        let allowed = "a whole number from \(minimum) to \(Int.max)"
        let digits = text.drop { $0 == "+" }
        if let value = Int(text), value >= minimum { return value }
        if text.hasPrefix("-") || (minimum > 0 && !digits.isEmpty && digits.allSatisfy({ $0 == "0" })) {
            throw ValidationError("must be at least \(minimum) (\(allowed)), not \(text)")
        }
        if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw ValidationError("\(text) is too large: at most \(Int.max)")
        }
        throw ValidationError("'\(text)' is not \(allowed)")
    }
}
