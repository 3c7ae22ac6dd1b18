import ConfigurationFile
import DebounceCore
import Settings

extension CounterSettings {
    /// What `check` says of this counter on run line `line`: its place, bias, debouncing, pulses per
    /// unit, device class, how often its total is written, its rate's unit and timeout (and how often
    /// it is published, when the configuration `publishes` over MQTT), then its actions.
    package func checkLines(line: LineID, places: some CheckedPlaces, publishes: Bool) -> [String] {
        let active = debounce.activeLevel == .activeLow ? "low" : "high"
        var details = ["debounce \(debounce.press)", "a pulse when \(active)"]
        if lineSettings.kernelDebounceNs > 0 { details.append("kernel debounce \(DurationSyntax.format(lineSettings.kernelDebounceNs))") }
        let pulses = perUnit == perUnit.rounded() ? String(Int64(perUnit)) : "\(perUnit)"
        details.append("\(pulses) pulse(s) per \(unit ?? "unit")")
        if let deviceClass { details.append("device class \(deviceClass)") }
        details.append("state file written at most every \(DurationSyntax.format(flushIntervalNs))")
        details.append("rate in \(rateUnit), 0 after \(DurationSyntax.format(rateTimeoutNs)) without a pulse")
        if publishes { details.append("published at most every \(DurationSyntax.format(publishIntervalNs))") }
        let actions = actions.map { action in
            let policy = action.action.policy == .coalesce ? "coalesced" : "\(action.action.policy)"
            return "    on \(action.on.rawValue) (\(policy)): \(action.action.arguments.joined(separator: " "))"
        }
        return ["  \(name): counter on \(places.place(of: line)), bias \(lineSettings.bias.rawValue), \(details.joined(separator: ", "))"] + actions
    }
}
