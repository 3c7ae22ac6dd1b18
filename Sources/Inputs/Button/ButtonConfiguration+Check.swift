import ConfigurationFile
import DebounceCore
import Settings

extension ButtonConfiguration {
    /// What `check` says of this button on run line `line`: its place, bias, debouncing and gestures,
    /// then its actions and keys.
    package func checkLines(line: LineID, places: some CheckedPlaces) -> [String] {
        var gestures: [String] = []
        if let hold = self.gestures.holdNs { gestures.append("hold \(DurationSyntax.format(hold))") }
        if let interval = self.gestures.repeatIntervalNs { gestures.append("repeat every \(DurationSyntax.format(interval))") }
        if let window = self.gestures.clickWindowNs { gestures.append("clicks within \(DurationSyntax.format(window)) (\(self.gestures.clickPolicy.rawValue))") }
        if let throttle = self.gestures.throttleNs { gestures.append("throttle \(DurationSyntax.format(throttle))") }
        if let group { gestures.append("group \(group)") }
        let described = gestures.isEmpty ? "" : "; " + gestures.joined(separator: ", ")
        var lines = ["  \(name): \(places.place(of: line)), bias \(lineSettings.bias.rawValue), press \(debounce.press), release \(debounce.release)\(described)"]
        for action in actions {
            lines.append("    on \(action.on.rawValue)\(action.count.map { " \($0)" } ?? ""): \(action.action.arguments.joined(separator: " "))")
        }
        for keys in keys {
            let names = KeyCode.names(keys.keys)
            lines.append("    on \(keys.on.rawValue)\(keys.count.map { " \($0)" } ?? ""): \(keys.isHeld ? "\(names) down until the release" : "tap \(names)")")
        }
        return lines
    }
}
