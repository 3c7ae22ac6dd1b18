import DebounceCore

/// The time axis and the text of a `TraceSVG`: tick steps, numbers, durations, XML escaping.
extension TraceSVG {
    // MARK: - Time axis

    /// Maps times to x coordinates of the plot.
    struct TimeScale {
        let fromNs: Int64
        let toNs: Int64
        let plotLeft: Double
        let plotRight: Double
        let pixelsPerNs: Double

        init(fromNs: Int64, toNs: Int64, layout: Layout) {
            self.fromNs = fromNs
            self.toNs = toNs
            self.plotLeft = layout.plotLeft
            self.plotRight = layout.plotRight
            self.pixelsPerNs = layout.plotWidth / max(1, Self.difference(toNs, fromNs))
        }

        /// `a - b` as a Double, exact when it fits in Int64.
        static func difference(_ a: Int64, _ b: Int64) -> Double {
            let (d, overflow) = a.subtractingReportingOverflow(b)
            return overflow ? Double(a) - Double(b) : Double(d)
        }

        /// The x coordinate of `timeNs`, clamped to the plot.
        func x(_ timeNs: Int64) -> Double {
            min(plotRight, max(plotLeft, plotLeft + Self.difference(timeNs, fromNs) * pixelsPerNs))
        }

        /// The pixel column of `timeNs`, clamped to `0..<columns`.
        func column(_ timeNs: Int64, columns: Int) -> Int {
            let offset = Self.difference(timeNs, fromNs) * pixelsPerNs
            guard offset > 0 else { return 0 }
            return offset >= Double(columns) ? columns - 1 : Int(offset)
        }
    }

    /// One labelled tick: its offset from `fromNs` and its label (e.g. `0`, `0.5 ms`, `1 ms`).
    struct Tick: Equatable {
        var offsetNs: Int64
        var label: String
    }

    /// Ticks at a "nice" step (1, 2 or 5 times a power of ten nanoseconds) giving at most `maxTicks`
    /// intervals over `spanNs`, labelled in the largest unit that keeps the step at least 0.1 of it.
    static func ticks(spanNs: Int64, maxTicks: Int) -> [Tick] {
        let span = max(1, spanNs)
        let rough = Double(span) / Double(max(1, maxTicks))
        var step: Int64 = 1
        search: while true {
            for multiple: Int64 in [1, 2, 5] where Double(step) * Double(multiple) >= rough {
                step *= multiple
                break search
            }
            guard step <= Int64.max / 10 else { break }
            step *= 10
        }
        let units: [(ns: Int64, name: String)] = [
            (1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs"), (1, "ns"),
        ]
        let unit = units.first { step >= $0.ns / 10 } ?? units[units.count - 1]
        let decimals = step >= unit.ns ? 0 : 1
        var ticks: [Tick] = []
        var offset: Int64 = 0
        while offset <= span {
            let label = offset == 0 ? "0" : "\(Self.fixed(offset, unitNs: unit.ns, decimals: decimals)) \(unit.name)"
            ticks.append(Tick(offsetNs: offset, label: label))
            let (next, overflow) = offset.addingReportingOverflow(step)
            if overflow { break }
            offset = next
        }
        return ticks
    }

    // MARK: - Formatting

    /// `1 edge`, `2 edges`, `1,000,000 edges`.
    static func count(_ n: Int, _ noun: String) -> String {
        var digits = String(n.magnitude)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return "\(n < 0 ? "-" : "")\(digits)\(grouped) \(noun)\(n == 1 ? "" : "s")"
    }

    /// `value / unitNs` with `decimals` (0 or 1) decimals, rounded half up, trailing `.0` dropped.
    static func fixed(_ value: Int64, unitNs: Int64, decimals: Int) -> String {
        let negative = value < 0
        let magnitude = value.magnitude
        let unit = UInt64(unitNs)
        let scaled: UInt64
        if decimals == 0 {
            scaled = magnitude / unit + (magnitude % unit >= (unit + 1) / 2 ? 1 : 0)
        } else if unit >= 10 {
            let tenth = unit / 10
            scaled = magnitude / tenth + (magnitude % tenth >= (tenth + 1) / 2 ? 1 : 0)
        } else {
            scaled = magnitude.multipliedReportingOverflow(by: 10).partialValue / unit
        }
        var text: String
        if decimals == 0 {
            text = "\(scaled)"
        } else {
            text = "\(scaled / 10)"
            if scaled % 10 != 0 { text += ".\(scaled % 10)" }
        }
        return negative && scaled != 0 ? "-" + text : text
    }

    /// A delay such as `2ms`, `350us`, `120ns`, `1.25s` (`DurationSyntax.approximate`).
    static func duration(_ ns: Int64) -> String { DurationSyntax.approximate(ns) }

    /// An absolute time such as `12.000345678 s` (or `0 s`).
    static func absoluteTime(_ ns: Int64) -> String {
        if ns == 0 { return "0 s" }
        let magnitude = ns.magnitude
        var fraction = String(magnitude % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = "\(ns < 0 ? "-" : "")\(magnitude / 1_000_000_000)"
        return fraction.isEmpty ? "\(whole) s" : "\(whole).\(fraction) s"
    }

    /// A coordinate with at most one decimal, e.g. `12`, `12.5`, `-3.2`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int64((value * 10).rounded())
        let whole = tenths / 10
        let fraction = (tenths % 10).magnitude
        if fraction == 0 { return "\(whole)" }
        return tenths < 0 && whole == 0 ? "-0.\(fraction)" : "\(whole).\(fraction)"
    }

    /// `text` with the five XML special characters escaped, and control characters XML 1.0 forbids dropped.
    package static func escapeXML(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
