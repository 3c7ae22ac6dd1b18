import ConfigurationFile
import DebounceCore
import Settings

extension KeypadSettings {
    /// What `check` says of this keypad, its first pin the `firstPin`-th of the roster's pins (its rows,
    /// then its columns): its size and pins, the scan, its layout, the keys it types, its code entry and
    /// its actions:
    /// `  door: keypad 4×4 on gpiochip0: rows 5, 6, 13, 19 (bias pull-up), columns 12, 16, 20, 21`, then its scan.
    package func checkLines(firstPin: Int, places: some CheckedPlaces) -> [String] {
        let rowPlaces = rows.indices.map { places.pin(firstPin + $0, rows[$0]) }
        let columnPlaces = columns.indices.map { places.pin(firstPin + rows.count + $0, columns[$0]) }
        var details = [
            matrix.diodes ? "diodes (any keys at once)" : "no diodes (a ghost key is never reported)",
            "settle \(DurationSyntax.format(matrix.settleNs)), a scan every \(DurationSyntax.format(matrix.scanIntervalNs)) while a key is down",
            "debounce \(debounce.press)",
        ]
        if let holdNs = gestures.holdNs { details.append("hold \(DurationSyntax.format(holdNs))") }
        let chips = Array(Set((rowPlaces + columnPlaces).map(\.chip))).sorted()
        let bias = rows.first.map { " (bias \($0.bias.rawValue))" } ?? ""
        var lines = [
            "  \(name): keypad \(matrix.rows)×\(matrix.columns) on \(chips.joined(separator: " and ")): rows \(rowPlaces.map(\.line).joined(separator: ", "))\(bias), columns \(columnPlaces.map(\.line).joined(separator: ", "))",
            "    keys \(layout.map { String($0) }.joined(separator: " ")); \(details.joined(separator: ", "))",
        ]
        if !keyMap.isEmpty {
            let typed = layout.joined().compactMap { key in keyMap[key].map { "\(key) \(KeyCode.names([$0]))" } }
            lines.append("    types \(typed.joined(separator: ", "))")
        }
        if let code { lines.append("    \(Self.describe(code, published: publishCode))") }
        for action in actions {
            let keys = action.keys.map { " keys \(String($0.sorted()))" } ?? ""
            lines.append("    on \(action.on.name)\(keys) (\(action.action.policy)): \(action.action.arguments.joined(separator: " "))")
        }
        return lines
    }

    /// A code's entry as `check` says it: its length, its keys, its end, clear and back keys, its
    /// timeout, and whether it is published.
    static func describe(_ code: CodeConfiguration, published: Bool) -> String {
        let length = code.maxLength.map { $0 == code.minLength ? "\($0)" : "\(code.minLength) to \($0)" } ?? "\(code.minLength) or more"
        var parts = ["code of \(length) key(s)"]
        if let keys = code.allowedKeys { parts.append("made of \(String(keys))") }
        if !code.endKeys.isEmpty { parts.append("ended by \(String(code.endKeys))") }
        if !code.clearKeys.isEmpty { parts.append("cleared by \(String(code.clearKeys))") }
        if !code.backKeys.isEmpty { parts.append("\(String(code.backKeys)) takes one back") }
        if let timeoutNs = code.timeoutNs { parts.append("forgotten after \(DurationSyntax.format(timeoutNs)) without a key") }
        parts.append(published ? "published to MQTT" : "never published or logged (its length only)")
        return parts.joined(separator: ", ")
    }
}
