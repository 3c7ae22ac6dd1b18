import ConfigurationFile
import DebounceCore
import Settings

extension SensorSettings {
    /// What `check` says of this contact on run line `line`: its place, bias, debouncing, level, delays
    /// and device class, then its actions.
    package func checkLines(line: LineID, places: some CheckedPlaces) -> [String] {
        let on = debounce.activeLevel == .activeHigh ? "on when high" : "on when low (inverted)"
        var details = ["debounce \(debounce.press)", on]
        if contact.onDelayNs > 0 { details.append("on after \(DurationSyntax.format(contact.onDelayNs))") }
        if contact.offDelayNs > 0 { details.append("off after \(DurationSyntax.format(contact.offDelayNs))") }
        if lineSettings.kernelDebounceNs > 0 { details.append("kernel debounce \(DurationSyntax.format(lineSettings.kernelDebounceNs))") }
        if let deviceClass { details.append("device class \(deviceClass)") }
        return ["  \(name): sensor on \(places.place(of: line)), bias \(lineSettings.bias.rawValue), \(details.joined(separator: ", "))"]
            + actions.map { "    on \($0.on.rawValue): \($0.action.arguments.joined(separator: " "))" }
    }
}
