import ConfigurationFile
import DebounceCore
import Settings

extension CheckReport {
    /// Each keypad: its size and pins, the scan, its layout, the keys it types, its code entry and
    /// its actions:
    /// `  door: keypad 4×4 on gpiochip0: rows 5, 6, 13, 19 (bias pull-up), columns 12, 16, 20, 21`, then its scan.
    static func keypads(_ roster: Roster, places: Places) -> [String] {
        var firstPin = roster.pinLines.count
        return roster.keypads.flatMap { keypad, _ in
            let matrix = keypad.matrix
            let rows = keypad.rows.indices.map { places(pin: firstPin + $0, keypad.rows[$0]) }
            let columns = keypad.columns.indices.map { places(pin: firstPin + keypad.rows.count + $0, keypad.columns[$0]) }
            firstPin += keypad.rows.count + keypad.columns.count
            var details = [
                matrix.diodes ? "diodes (any keys at once)" : "no diodes (a ghost key is never reported)",
                "settle \(DurationSyntax.format(matrix.settleNs)), a scan every \(DurationSyntax.format(matrix.scanIntervalNs)) while a key is down",
                "debounce \(keypad.debounce.press)",
            ]
            if let holdNs = keypad.gestures.holdNs { details.append("hold \(DurationSyntax.format(holdNs))") }
            let chips = Array(Set((rows + columns).map(\.chip))).sorted()
            var lines = [
                "  \(keypad.name): keypad \(matrix.rows)×\(matrix.columns) on \(chips.joined(separator: " and ")): rows \(rows.map(\.line).joined(separator: ", ")) (bias \(keypad.rows[0].bias.rawValue)), columns \(columns.map(\.line).joined(separator: ", "))",
                "    keys \(keypad.layout.map { String($0) }.joined(separator: " ")); \(details.joined(separator: ", "))",
            ]
            if !keypad.keyMap.isEmpty {
                let typed = keypad.layout.joined().compactMap { key in keypad.keyMap[key].map { "\(key) \(keyNames([$0]))" } }
                lines.append("    types \(typed.joined(separator: ", "))")
            }
            if let code = keypad.code {
                let length = code.maxLength.map { $0 == code.minLength ? "\($0)" : "\(code.minLength) to \($0)" } ?? "\(code.minLength) or more"
                var parts = ["code of \(length) key(s)"]
                if let keys = code.allowedKeys { parts.append("made of \(String(keys))") }
                if !code.endKeys.isEmpty { parts.append("ended by \(String(code.endKeys))") }
                if !code.clearKeys.isEmpty { parts.append("cleared by \(String(code.clearKeys))") }
                if !code.backKeys.isEmpty { parts.append("\(String(code.backKeys)) takes one back") }
                if let timeoutNs = code.timeoutNs { parts.append("forgotten after \(DurationSyntax.format(timeoutNs)) without a key") }
                parts.append(keypad.publishCode ? "published to MQTT" : "never published or logged (its length only)")
                lines.append("    \(parts.joined(separator: ", "))")
            }
            for action in keypad.actions {
                let keys = action.keys.map { " keys \(String($0.sorted()))" } ?? ""
                lines.append("    on \(action.on.name)\(keys) (\(action.action.policy)): \(action.action.arguments.joined(separator: " "))")
            }
            return lines
        }
    }
}
