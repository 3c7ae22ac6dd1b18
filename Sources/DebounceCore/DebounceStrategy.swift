/// How one direction of change (press, or release) is debounced.
///
/// Times are in nanoseconds. "Edge" means any edge the kernel reported, including bounce.
public enum DebounceStrategy: Sendable, Hashable {
    /// `defer(W)`, wait until stable: a change is reported only after the raw level has held the
    /// new value for `windowNs` with no edge. An edge stamped exactly at the deadline cancels it.
    /// The event's decision time is the last edge + `windowNs`.
    case `defer`(windowNs: Int64)

    /// `eager(L, glitch: G)`, report at once, then lock out: a change is reported as soon as the
    /// raw level has held it for `glitchNs` (G = 0: at the edge that makes it); then nothing is
    /// reported for `lockoutNs`. At the end of the lockout, if the raw level differs from the
    /// reported state, that is reported at once (once it has held for G) and starts a new lockout.
    /// So the reported state always converges to the real level: a press shorter than the lockout
    /// never swallows its release. A spike shorter than `glitchNs` never makes a press.
    case eager(lockoutNs: Int64, glitchNs: Int64 = 0)

    /// How long the raw level must hold, with no edge, before a change in this direction is reported:
    /// W for `defer`, G for `eager`.
    @inlinable
    public var stabilityNs: Int64 {
        switch self {
        case .defer(let windowNs): windowNs
        case .eager(_, let glitchNs): glitchNs
        }
    }

    /// How long, after a report in this direction, nothing else may be reported: L for `eager`, 0 for `defer`.
    @inlinable
    public var lockoutNs: Int64 {
        switch self {
        case .defer: 0
        case .eager(let lockoutNs, _): lockoutNs
        }
    }
}

extension DebounceStrategy: CustomStringConvertible {
    /// The strategy in the syntax `DebounceStrategy(parsing:)` reads, e.g. `eager:5ms,glitch:100us`.
    public var description: String {
        switch self {
        case .defer(let windowNs):
            "defer:\(DurationSyntax.format(windowNs))"
        case .eager(let lockoutNs, 0):
            "eager:\(DurationSyntax.format(lockoutNs))"
        case .eager(let lockoutNs, let glitchNs):
            "eager:\(DurationSyntax.format(lockoutNs)),glitch:\(DurationSyntax.format(glitchNs))"
        }
    }
}

extension DebounceStrategy {
    /// Reads `defer:DURATION`, `eager:DURATION` or `eager:DURATION,glitch:DURATION`
    /// (durations as `DurationSyntax` reads them, with a unit: `5ms`, `500us`, `1s`, `1h`).
    public init(parsing text: some StringProtocol) throws(DebounceSyntaxError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let head = parts.first, let colon = head.firstIndex(of: ":") else {
            throw .badStrategy(String(text))
        }
        let name = head[..<colon]
        let glitch = parts.count == 2 && parts[1].hasPrefix("glitch:") ? parts[1].dropFirst("glitch:".count) : nil
        // The shape first, then the durations: `lazy:soon` is an unknown strategy, not a bad duration.
        guard (name == "defer" && parts.count == 1) || (name == "eager" && (parts.count == 1 || glitch != nil)) else {
            throw .badStrategy(String(text))
        }
        let window = try DurationSyntax.parseNs(head[head.index(after: colon)...])
        if name == "defer" {
            self = .defer(windowNs: window)
        } else if let glitch {
            self = .eager(lockoutNs: window, glitchNs: try DurationSyntax.parseNs(glitch))
        } else {
            self = .eager(lockoutNs: window)
        }
    }
}
