/// Durations written like gpiomon's: `10ms`, `500us`, `1s`, `250ns`, `1.5ms`, always with a unit: a bare
/// number (`2`) is refused, since it reads as milliseconds to one user and seconds to another; only `0`,
/// the same in every unit, needs none.
/// Beyond gpiomon's units, `min` and `h` (as ESPHome writes them) reach the one-hour limit: `1h`,
/// `30min`. Not `m`, which reads as a misspelt `ms` as easily as minutes.
public enum DurationSyntax {
    /// The longest duration accepted: one hour, in nanoseconds. Longer is surely a typo, and
    /// the bound keeps every deadline (edge time + duration) far from overflow.
    public static let maximumNs: Int64 = 3_600_000_000_000

    /// Parses `text` to nanoseconds. Accepts a non-negative decimal number with an optional
    /// fraction and one of the units `h`, `min`, `s`, `ms`, `us` (or `µs`), `ns`; a number with no unit
    /// is `durationNeedsUnit` unless it is zero.
    public static func parseNs(_ text: some StringProtocol) throws(DebounceSyntaxError) -> Int64 {
        let text = Substring(text)
        let numberEnd = text.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? text.endIndex
        let number = text[..<numberEnd]
        let unitNs: Int64
        switch text[numberEnd...] {
        case "h": unitNs = 3_600_000_000_000
        case "min": unitNs = 60_000_000_000
        case "s": unitNs = 1_000_000_000
        case "ms": unitNs = 1_000_000
        case "" where number.allSatisfy({ $0 == "0" || $0 == "." }): unitNs = 1_000_000
        case "" where number.contains(where: \.isNumber) && number.count(where: { $0 == "." }) <= 1: throw .durationNeedsUnit(String(text))
        case "us", "µs": unitNs = 1_000
        case "ns": unitNs = 1
        default: throw .badDuration(String(text))
        }
        let pieces = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, !number.isEmpty, number != ".",
            whole.allSatisfy(\.isASCII), pieces.count == 1 || pieces[1].allSatisfy({ $0 != "." })
        else { throw .badDuration(String(text)) }
        // Whole part, then the fraction digit by digit, all in integers: no rounding surprises.
        var ns: Int64 = 0
        for digit in whole {
            ns = ns * 10 + Int64(digit.wholeNumberValue ?? 0) * unitNs
            guard ns <= maximumNs else { throw .durationTooLong(String(text)) }
        }
        if pieces.count == 2 {
            var scale = unitNs
            for digit in pieces[1] {
                scale /= 10
                let value = Int64(digit.wholeNumberValue ?? 0)
                guard scale > 0 || value == 0 else { throw .durationTooPrecise(String(text)) }
                ns += value * scale
            }
        }
        guard ns <= maximumNs else { throw .durationTooLong(String(text)) }
        return ns
    }

    /// Formats nanoseconds exactly, in the syntax `parseNs` reads: whole hours or minutes as `1h`,
    /// `2min`; otherwise in the largest unit up to seconds that keeps at most three decimals: `90s`,
    /// `5ms`, `1.5ms`, `178.562us`, `250ns`, `0ms`.
    public static func format(_ ns: Int64) -> String {
        if ns == 0 { return "0ms" }
        for (unit, unitNs) in [("h", 3_600_000_000_000), ("min", 60_000_000_000)] as [(String, Int64)] where ns % unitNs == 0 {
            return "\(ns / unitNs)\(unit)"
        }
        for (unit, unitNs) in [("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)] as [(String, Int64)]
        where ns.magnitude >= UInt64(unitNs) && ns % (unitNs / 1_000) == 0 {
            let whole = ns / unitNs, fraction = (ns % unitNs).magnitude / UInt64(unitNs / 1_000)
            guard fraction > 0 else { return "\(whole)\(unit)" }
            var digits = String(fraction)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            return "\(whole).\(digits)\(unit)"
        }
        return "\(ns)ns"
    }
}

extension DurationSyntax {
    /// Which way `approximate` and `rounded` go when a duration has more digits than they show.
    public enum Rounding: Sendable, Hashable {
        /// To the nearest shown value, halves away from zero.
        case nearest
        /// To the shown value at or above: for a lower bound, such as the smallest window that works.
        case up
        /// To the shown value at or below: for an upper bound, such as a window to stay under.
        case down
        /// Not at all: a setting or a window as given, shown with three significant digits when they
        /// hold it (`20ms`, `1.5ms`), otherwise with every digit as `format` writes it (`1234.567us`).
        case exact
    }

    /// A duration for people, to three significant digits (whole seconds from 1000 s on), in the syntax
    /// `parseNs` reads (so it can be copied into an option): `62ns`, `1.5us`, `0.44ms`, `1.2s`, rounded
    /// to the nearest. Negative durations show as `0ns`.
    public static func approximate(_ ns: Int64) -> String { approximate(ns, rounding: .nearest) }

    /// `ns` in nanoseconds as `approximate(_:)` shows it, rounded by `rule`: the value shown is
    /// `rounded(ns, rule)`, so `.up` never shows less than `ns` and `.down` never more.
    /// `approximate(1_043_250, rounding: .up)` is `1.05ms`, which `parseNs` reads as 1,050,000 ns.
    public static func approximate(_ ns: Int64, rounding rule: Rounding) -> String {
        let shown = rounded(ns, rule)
        if rule == .exact, rounded(ns, .nearest) != shown { return format(shown) }
        guard shown >= 1_000 else { return "\(shown)ns" }
        let (unit, unitNs, fractionDigits): (String, Int64, Int) =
            shown < 1_000_000 ? ("us", 1_000, 3) : shown < 1_000_000_000 ? ("ms", 1_000_000, 6) : ("s", 1_000_000_000, 9)
        let whole = shown / unitNs, fraction = shown % unitNs
        guard fraction > 0 else { return "\(whole)\(unit)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: fractionDigits - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)\(unit)"
    }

    /// `ns` in nanoseconds (negative: 0) rounded by `rule` to three significant digits, or to whole
    /// seconds from 1000 s on: the value `approximate` shows. Exact, in integers. Rounding up past
    /// `Int64.max` rounds down instead; `.exact` gives `ns` itself.
    public static func rounded(_ ns: Int64, _ rule: Rounding = .nearest) -> Int64 {
        let ns = max(0, ns)
        guard rule != .exact else { return ns }
        var step: Int64 = 1
        while ns / step >= 1_000, step < 1_000_000_000 { step *= 10 }
        let down = ns - ns % step, remainder = ns % step
        let goUp: Bool
        switch rule {
        case .nearest: goUp = remainder >= step - remainder
        case .up: goUp = remainder > 0
        case .down, .exact: goUp = false
        }
        guard goUp else { return down }
        let (up, overflow) = down.addingReportingOverflow(step)
        return overflow ? down : up
    }
}

/// A strategy or duration that could not be read. The description says what is accepted.
public enum DebounceSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    case badDuration(String)
    case durationTooLong(String)
    case durationTooPrecise(String)
    /// A number other than zero with no unit (`2`): the text to write is the number with `ms`, `s` or `us`.
    case durationNeedsUnit(String)
    case badStrategy(String)

    public var description: String { description(quoting: { "'\($0)'" }) }

    /// The message, with the offending text shown by `quote` (a caller may shorten or escape it).
    public func description(quoting quote: (String) -> String) -> String {
        switch self {
        case .badDuration(let text) where text.hasPrefix("-"):
            "\(quote(text)) is not a duration: durations cannot be negative; write a number with a unit (h, min, s, ms, us, ns), e.g. 5ms, 500us, 1s"
        case .badDuration(let text):
            "\(quote(text)) is not a duration: write a number with a unit (h, min, s, ms, us, ns), e.g. 5ms, 500us, 1s, 2min, 1h"
        case .durationTooLong(let text):
            "\(quote(text)) is longer than 1h, the most a debounce duration may be"
        case .durationTooPrecise(let text):
            "\(quote(text)) is finer than a nanosecond"
        case .durationNeedsUnit(let text):
            "a duration needs a unit: write \(text)ms (or \(text)s, \(text)us)"
        case .badStrategy(let text) where text.hasPrefix("-"):
            "\(quote(text)) is not a debounce strategy, and durations cannot be negative: write defer:DURATION, eager:DURATION or eager:DURATION,glitch:DURATION (e.g. defer:10ms, eager:30ms,glitch:100us)"
        case .badStrategy(let text):
            "\(quote(text)) is not a debounce strategy: write defer:DURATION, eager:DURATION or eager:DURATION,glitch:DURATION (e.g. defer:10ms, eager:30ms,glitch:100us)"
        }
    }
}
