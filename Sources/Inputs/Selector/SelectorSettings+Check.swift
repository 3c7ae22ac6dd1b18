import ConfigurationFile
import DebounceCore

extension SelectorSettings {
    /// What `check` says of this selector, its lines the roster's pins from the `firstPin`-th: its chip
    /// once, its lines, code and positions, bias, active level and settle time, then its actions:
    /// `  mode: selector on gpiochip0 lines 5, 6, 13, code one_hot (off, auto, on), bias pull-up, active low, settles for 20ms`.
    func checkLines(firstPin: Int, places: some CheckedPlaces) -> [String] {
        let pins = lines.indices.map { places.pin(firstPin + $0, lines[$0]) }
        let named = positions.isEmpty ? "" : " (\(positions.joined(separator: ", ")))"
        let details = [
            "code \(ConfigurationReader.codeWord(configuration.code))\(named)", "bias \(lines.first?.bias.rawValue ?? "")",
            activeLevel == .activeLow ? "active low" : "active high", "settles for \(DurationSyntax.format(configuration.settleNs))",
        ]
        return ["  \(name): selector on \(pins.first?.chip ?? "") lines \(pins.map(\.line).joined(separator: ", ")), \(details.joined(separator: ", "))"]
            + actions.map { "    on \($0.on.rawValue): \($0.action.arguments.joined(separator: " "))" }
    }
}
