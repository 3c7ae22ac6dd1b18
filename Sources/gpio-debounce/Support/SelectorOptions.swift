import ArgumentParser
import EventOutput

/// `--code`, `--positions` and `--settle`: how `watch --selector LINES` reads the switch, as a
/// `selectors:` entry of a configuration would (`code:`, `positions:`, `settle:`).
struct SelectorOptions: ParsableArguments {
    @Option(help: ArgumentHelp("With --selector: how its lines make the position: one_hot (a line per position, the default), binary, gray or bcd.", valueName: "code"))
    var code: String?

    @Option(help: ArgumentHelp("With --selector: names for the positions, the lowest first, comma-separated (e.g. off,auto,on).", valueName: "names"))
    var positions: String?

    @Option(help: ArgumentHelp("With --selector: how long its lines must hold still before a reading counts (default 20ms).", valueName: "duration"))
    var settle: String?

    /// Whether any of them was given (they need --selector).
    var isGiven: Bool { code != nil || positions != nil || settle != nil }

    /// A configuration of one selector, `watch`, on `lines` with the options given and `chip`, `bias`
    /// and `active` (`low`, `high`), as YAML: every value a JSON string, which YAML reads as written.
    func configuration(lines: [String], chip: String?, bias: String, active: String) -> String {
        func quoted(_ text: String) -> String { JSONValue.string(text).text }
        var fields = [
            "name: watch", "lines: [\(lines.map(quoted).joined(separator: ", "))]", "bias: \(quoted(bias))", "active: \(quoted(active))",
        ]
        if let chip { fields.append("chip: \(quoted(chip))") }
        if let code { fields.append("code: \(quoted(code))") }
        if let positions { fields.append("positions: [\(positions.split(separator: ",", omittingEmptySubsequences: false).map { quoted(String($0)) }.joined(separator: ", "))]") }
        if let settle { fields.append("settle: \(quoted(settle))") }
        return "selectors:\n  - {\(fields.joined(separator: ", "))}\n"
    }
}
