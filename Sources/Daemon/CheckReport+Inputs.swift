import ConfigurationFile
import DebounceCore
import EventOutput
import Settings

extension CheckReport {
    /// Each button: its place, bias, debouncing and gestures, then its actions and keys.
    static func buttons(_ roster: Roster, places: Places) -> [String] {
        var lines: [String] = []
        for (button, line) in roster.buttons {
            var gestures: [String] = []
            if let hold = button.gestures.holdNs { gestures.append("hold \(DurationSyntax.format(hold))") }
            if let interval = button.gestures.repeatIntervalNs { gestures.append("repeat every \(DurationSyntax.format(interval))") }
            if let window = button.gestures.clickWindowNs { gestures.append("clicks within \(DurationSyntax.format(window)) (\(button.gestures.clickPolicy.rawValue))") }
            if let throttle = button.gestures.throttleNs { gestures.append("throttle \(DurationSyntax.format(throttle))") }
            if let group = button.group { gestures.append("group \(group)") }
            let described = gestures.isEmpty ? "" : "; " + gestures.joined(separator: ", ")
            lines.append("  \(button.name): \(places(line)), bias \(button.lineSettings.bias.rawValue), press \(button.debounce.press), release \(button.debounce.release)\(described)")
            for action in button.actions {
                lines.append("    on \(action.on.rawValue)\(action.count.map { " \($0)" } ?? ""): \(action.action.arguments.joined(separator: " "))")
            }
            for keys in button.keys {
                let names = keyNames(keys.keys)
                lines.append("    on \(keys.on.rawValue)\(keys.count.map { " \($0)" } ?? ""): \(keys.isHeld ? "\(names) down until the release" : "tap \(names)")")
            }
        }
        return lines
    }

    /// Each encoder: its chip and lines A and B, bias, steps (with one, the settle), direction, range and acceleration, then
    /// its keys, actions and axis.
    static func encoders(_ roster: Roster, found: [MachineFindings.Line]?) -> [String] {
        var lines: [String] = []
        for (encoder, lineA, lineB, resetLine) in roster.encoders {
            let located = found.map { ($0[lineA.index], $0[lineB.index]) }
            let place = located.map { "\($0.0.chipName) lines \($0.0.offset) (A), \($0.1.offset) (B)" }
                ?? "\(encoder.lineA.chip.map { "\($0) " } ?? "")lines \(encoder.lineA.line) (A), \(encoder.lineB.line) (B)"
            let configuration = encoder.configuration
            var details = [configuration.stepsPerDetent == .one ? "1 step per detent" : "\(configuration.stepsPerDetent.rawValue) steps per detent"]
            if configuration.stepsPerDetent == .one { details.append("a reversal counts once still for \(DurationSyntax.format(configuration.settleNs))") }
            if configuration.reverse { details.append("reversed") }
            if let range = configuration.range {
                let lower = range.lowerBound == Int.min ? "" : String(range.lowerBound)
                let upper = range.upperBound == Int.max ? "" : String(range.upperBound)
                details.append("position \(lower)...\(upper)\(configuration.wraps ? " wrapping" : "")")
            }
            if let acceleration = configuration.acceleration {
                details.append("×\(acceleration.factor) from \(EventWriter.decimal(acceleration.thresholdPerSecond))/s")
            }
            lines.append("  \(encoder.name): encoder on \(place), bias \(encoder.lineA.bias.rawValue), \(details.joined(separator: ", "))")
            if let reset = encoder.reset, let resetLine {
                let where_ = found.map { "\($0[resetLine.index].chipName) line \($0[resetLine.index].offset)" } ?? "line \(reset.lineSettings.line)"
                lines.append("    a press on \(where_) (reset) sets the position to \(reset.position)")
            }
            if let keys = encoder.keys {
                lines.append("    each detent taps \(keyNames(keys.clockwise)) (cw) or \(keyNames(keys.counterClockwise)) (ccw)")
            }
            for action in encoder.actions {
                let policy = action.action.policy == .coalesce ? "coalesced" : "\(action.action.policy)"
                lines.append("    on \(action.on.rawValue) (\(policy)): \(action.action.arguments.joined(separator: " "))")
            }
            if let axis = encoder.axis {
                lines.append("    each detent moves \(EncoderSettings.axisName(axis)) by one notch (up clockwise)")
            }
        }
        return lines
    }

    /// Each sensor: its place, bias, debouncing, level, delays and device class, then its actions.
    static func sensors(_ roster: Roster, places: Places) -> [String] {
        var lines: [String] = []
        for (sensor, line) in roster.sensors {
            let on = sensor.debounce.activeLevel == .activeHigh ? "on when high" : "on when low (inverted)"
            var details = ["debounce \(sensor.debounce.press)", on]
            if sensor.contact.onDelayNs > 0 { details.append("on after \(DurationSyntax.format(sensor.contact.onDelayNs))") }
            if sensor.contact.offDelayNs > 0 { details.append("off after \(DurationSyntax.format(sensor.contact.offDelayNs))") }
            if sensor.lineSettings.kernelDebounceNs > 0 { details.append("kernel debounce \(DurationSyntax.format(sensor.lineSettings.kernelDebounceNs))") }
            if let deviceClass = sensor.deviceClass { details.append("device class \(deviceClass)") }
            lines.append("  \(sensor.name): sensor on \(places(line)), bias \(sensor.lineSettings.bias.rawValue), \(details.joined(separator: ", "))")
            for action in sensor.actions {
                lines.append("    on \(action.on.rawValue): \(action.action.arguments.joined(separator: " "))")
            }
        }
        return lines
    }

    /// Each counter: its place, bias, debouncing, pulses per unit, device class, how often its total
    /// is written, its rate's unit and timeout (and how often it is published, when the configuration
    /// `publishes` over MQTT), then its actions.
    static func counters(_ roster: Roster, places: Places, publishes: Bool) -> [String] {
        roster.counters.flatMap { counter, line in
            let active = counter.debounce.activeLevel == .activeLow ? "low" : "high"
            var details = ["debounce \(counter.debounce.press)", "a pulse when \(active)"]
            if counter.lineSettings.kernelDebounceNs > 0 { details.append("kernel debounce \(DurationSyntax.format(counter.lineSettings.kernelDebounceNs))") }
            let perUnit = counter.perUnit == counter.perUnit.rounded() ? String(Int64(counter.perUnit)) : "\(counter.perUnit)"
            details.append("\(perUnit) pulse(s) per \(counter.unit ?? "unit")")
            if let deviceClass = counter.deviceClass { details.append("device class \(deviceClass)") }
            details.append("state file written at most every \(DurationSyntax.format(counter.flushIntervalNs))")
            details.append("rate in \(counter.rateUnit), 0 after \(DurationSyntax.format(counter.rateTimeoutNs)) without a pulse")
            if publishes { details.append("published at most every \(DurationSyntax.format(counter.publishIntervalNs))") }
            let actions = counter.actions.map { action in
                let policy = action.action.policy == .coalesce ? "coalesced" : "\(action.action.policy)"
                return "    on \(action.on.rawValue) (\(policy)): \(action.action.arguments.joined(separator: " "))"
            }
            return ["  \(counter.name): counter on \(places(line)), bias \(counter.lineSettings.bias.rawValue), \(details.joined(separator: ", "))"] + actions
        }
    }

    /// Key codes as the configuration names them, joined by `+` (`KEY_LEFTCTRL+KEY_C`).
    static func keyNames(_ codes: [UInt16]) -> String {
        codes.map { KeyCode.name(of: $0) ?? "\($0)" }.joined(separator: "+")
    }
}
