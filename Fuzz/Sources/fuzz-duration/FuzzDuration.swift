import DebounceCore
import FuzzSupport

/// Durations: `DurationSyntax.parseNs` must agree with `reference`, a plain reading of the syntax
/// (the same value, or the same kind of error); an accepted duration is from 0 to 1 hour, and formats
/// (`DurationSyntax.format`) to text that parses back to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = Fuzz.text(data, size)
    let expected = reference(text)
    let ns: Int64
    do {
        ns = try DurationSyntax.parseNs(text)
    } catch {
        Fuzz.require(!error.description.isEmpty, "an error without a message")
        Fuzz.require(expected == .failure(error), "'\(text)': \(error), expected \(expected)")
        return 0
    }
    Fuzz.require(expected == .success(ns), "'\(text)' gave \(ns) ns, expected \(expected)")
    Fuzz.require(ns >= 0 && ns <= DurationSyntax.maximumNs, "'\(text)' gave \(ns) ns")
    let formatted = DurationSyntax.format(ns)
    Fuzz.require(try DurationSyntax.parseNs(formatted) == ns, "'\(text)' gave \(ns) ns, formatted '\(formatted)'")
    Fuzz.require(try DurationSyntax.parseNs(text[...]) == ns, "a Substring parses differently from the String")
    _ = DurationSyntax.approximate(ns)
    return 0
}

/// `DIGITS[.DIGITS][UNIT]` (at least one digit), UNIT one of h min s ms us µs ns, or none for zero only,
/// read on Unicode scalars with exact integer arithmetic: too long (over 1 hour) is checked on the
/// whole part first, then a fraction finer than 1 ns, then the total.
func reference(_ text: String) -> Result<Int64, DebounceSyntaxError> {
    let scalars = Array(text.unicodeScalars)
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
    let numberEnd = scalars.firstIndex { !(isDigit($0) || $0 == ".") } ?? scalars.count
    let number = scalars[..<numberEnd]
    let unitNs: Int64
    switch String(String.UnicodeScalarView(scalars[numberEnd...])) {
    case "h": unitNs = 3_600_000_000_000
    case "min": unitNs = 60_000_000_000
    case "s": unitNs = 1_000_000_000
    case "ms": unitNs = 1_000_000
    case "" where number.allSatisfy({ $0 == "0" || $0 == "." }): unitNs = 1_000_000
    case "" where number.contains(where: isDigit) && number.filter({ $0 == "." }).count <= 1: return .failure(.durationNeedsUnit(text))
    case "us", "\u{B5}s": unitNs = 1_000
    case "ns": unitNs = 1
    default: return .failure(.badDuration(text))
    }
    let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard number.contains(where: isDigit), parts.count == 1 || !parts[1].contains(".") else {
        return .failure(.badDuration(text))
    }
    let whole = parts[0].drop { $0 == "0" }
    // More than 13 significant whole digits is over an hour in any unit; otherwise Int64 holds it.
    guard whole.count <= 13 else { return .failure(.durationTooLong(text)) }
    let wholeValue = whole.reduce(Int64(0)) { $0 * 10 + Int64($1.value - 48) }
    guard wholeValue <= DurationSyntax.maximumNs / unitNs else { return .failure(.durationTooLong(text)) }
    var ns = wholeValue * unitNs
    if parts.count == 2 {
        var scale = unitNs
        for digit in parts[1] {
            scale /= 10
            if scale == 0 {
                if digit != "0" { return .failure(.durationTooPrecise(text)) }
            } else {
                ns += Int64(digit.value - 48) * scale
            }
        }
    }
    return ns <= DurationSyntax.maximumNs ? .success(ns) : .failure(.durationTooLong(text))
}
