import ConfigurationFile
import DebounceCore
import EventOutput
import Settings

extension EncoderSettings {
    /// What `check` says of this encoder on run lines `lineA` and `lineB` (and `resetLine`, its reset
    /// button's): its chip and lines A and B, bias, steps (with one, the settle), direction, range and
    /// acceleration, then its reset, keys, actions and axis.
    package func checkLines(lineA idA: LineID, lineB idB: LineID, resetLine: LineID?, places: some CheckedPlaces) -> [String] {
        let place: String
        if let a = places.found(idA), let b = places.found(idB) {
            place = "\(a.chip) lines \(a.offset) (A), \(b.offset) (B)"
        } else {
            place = "\(lineA.chip.map { "\($0) " } ?? "")lines \(lineA.line) (A), \(lineB.line) (B)"
        }
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
        var lines = ["  \(name): encoder on \(place), bias \(lineA.bias.rawValue), \(details.joined(separator: ", "))"]
        if let reset, let resetLine {
            let where_ = places.found(resetLine).map { "\($0.chip) line \($0.offset)" } ?? "line \(reset.lineSettings.line)"
            lines.append("    a press on \(where_) (reset) sets the position to \(reset.position)")
        }
        if let keys {
            lines.append("    each detent taps \(KeyCode.names(keys.clockwise)) (cw) or \(KeyCode.names(keys.counterClockwise)) (ccw)")
        }
        for action in actions {
            let policy = action.action.policy == .coalesce ? "coalesced" : "\(action.action.policy)"
            lines.append("    on \(action.on.rawValue) (\(policy)): \(action.action.arguments.joined(separator: " "))")
        }
        if let axis {
            lines.append("    each detent moves \(EncoderSettings.axisName(axis)) by one notch (up clockwise)")
        }
        return lines
    }
}
